package result_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/result"
)

// Every result the API names reads back to itself, in the order the game's binary
// record stores them.
func TestParse_APINames(t *testing.T) {
	for i, s := range []string{"1-0", "0-1", "1/2-1/2", "+-", "-+", "0-0"} {
		r, err := result.Parse(s)
		if err != nil || r.String() != s || int(r) != i+1 {
			t.Errorf("Parse(%q) = %v (%d), %v", s, r, int(r), err)
		}
	}
}

// The one reader refuses what is not a result — "" included, since a
// request that sets a result must name one — and says what it wants.
func TestParse_RefusesUnknown(t *testing.T) {
	for _, s := range []string{"", "1–0", "½-½", "1-1", "draw", "0:1", " 1-0"} {
		r, err := result.Parse(s)
		if !errors.Is(err, result.ErrUnknown) || r != result.None {
			t.Errorf("Parse(%q) = %v, %v; want ErrUnknown", s, r, err)
		}
	}
	_, err := result.Parse("1:0")
	if want := `unknown result "1:0": want "1-0", "0-1", "1/2-1/2", "+-", "-+", "0-0"`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// K-1 and C-6: a forfeit is a win and a loss, a double forfeit a loss for
// both; a game being played scores nothing.
func TestScore_K1(t *testing.T) {
	cases := []struct {
		r                result.Result
		red, black       int
		ok, forfeit, set bool
	}{
		{result.RedWins, 1, -1, true, false, true},
		{result.BlackWins, -1, 1, true, false, true},
		{result.Draw, 0, 0, true, false, true},
		{result.RedByForfeit, 1, -1, true, true, true},
		{result.BlackByForfeit, -1, 1, true, true, true},
		{result.DoubleForfeit, -1, -1, true, true, true},
		{result.None, 0, 0, false, false, false},
		{result.Result(42), 0, 0, false, false, false},
	}
	for _, c := range cases {
		red, black, ok := c.r.Score()
		if red != c.red || black != c.black || ok != c.ok || c.r.Forfeit() != c.forfeit || c.r.Decided() != c.set {
			t.Errorf("%v: got %d %d %v forfeit %v decided %v, want %d %d %v %v %v", c.r, red, black, ok, c.r.Forfeit(), c.r.Decided(), c.red, c.black, c.ok, c.forfeit, c.set)
		}
	}
}

// Stored items keep the string form they had when results were strings: a
// stored result item and a challenge entry still being played decode, and
// encode back to the same bytes; an unknown stored string is an error, not
// a silently different score.
func TestJSON_StoredShape(t *testing.T) {
	type item struct {
		Round  int
		Result result.Result
	}
	for _, doc := range []string{`{"Round":3,"Result":"1/2-1/2"}`, `{"Round":1,"Result":"-+"}`, `{"Round":2,"Result":""}`} {
		var it item
		if err := json.Unmarshal([]byte(doc), &it); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		back, err := json.Marshal(it)
		if err != nil || string(back) != doc {
			t.Errorf("%s came back as %s, %v", doc, back, err)
		}
	}
	var it item
	if err := json.Unmarshal([]byte(`{"Result":"2-0"}`), &it); !errors.Is(err, result.ErrUnknown) {
		t.Errorf("decoding an unknown result: %v", err)
	}
	if _, err := json.Marshal(item{Result: result.Result(-3)}); err == nil {
		t.Error("encoded a value outside the results")
	}
}
