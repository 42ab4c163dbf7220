package httpapi_test

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// scrambledField registers eight players whose ratings are not in
// registration order (players 1 and 5 share a rating).
func scrambledField(t *testing.T, s *apitest.Server, settings string) field {
	t.Helper()
	f := field{ev: newEvent(t, s, settings), byID: map[string]created{}}
	for i, r := range []int{1600, 2100, 1800, 2300, 1600, 2200, 1900, 2000} {
		var p created
		s.Post("/tournaments/"+f.ev.ID+"/players", f.ev.Token, map[string]any{"name": fmt.Sprintf("Player %d", i+1), "rating": r}).
			Want(t, http.StatusCreated).Decode(t, &p)
		f.players = append(f.players, p)
		f.byID[p.ID] = p
	}
	return f
}

// bergerRounds lays out rounds 1 and 2 of the 8-player round-robin table
// (S-1: R1 1-8 2-7 3-6 4-5, R2 8-5 6-4 7-3 1-2) as the registration numbers
// of the players holding table numbers 1…8.
func bergerRounds(holder []int) [2]string {
	at := func(ns ...int) string {
		var out []string
		for i := 0; i < len(ns); i += 2 {
			out = append(out, fmt.Sprintf("%d-%d", holder[ns[i]-1], holder[ns[i+1]-1]))
		}
		return strings.Join(out, " ")
	}
	return [2]string{at(1, 8, 2, 7, 3, 6, 4, 5), at(8, 5, 6, 4, 7, 3, 1, 2)}
}

// S-1 numbers by seeding and by draw over HTTP: an 8-player round robin
// numbered by rating pairs rounds 1 and 2 from the Berger table in rating
// order; numbered by draw, the lot (SHA-256 of "numbering/" + id → PCG →
// shuffle, replayed here) holds for round 1, its re-read, and round 2.
func TestRoundRobinNumbering_S1_OverHTTP(t *testing.T) {
	s := apitest.New(t)
	byRating := scrambledField(t, s, `{"name":"By rating","system":"roundRobin","numbering":"rating"}`)
	if byRating.ev.T["numbering"] != "rating" {
		t.Fatalf("numbering %v, want rating", byRating.ev.T["numbering"])
	}
	// 2300 2200 2100 2000 1900 1800 1600 1600: players 4 6 2 8 7 3 1 5.
	check := func(f field, want [2]string) {
		t.Helper()
		for n := 1; n <= 2; n++ {
			r := f.pair(t, s, nil, http.StatusCreated)
			if got := f.registration(r); got != want[n-1] {
				t.Fatalf("round %d: %s, want %s", n, got, want[n-1])
			}
			var again roundJSON
			s.Get(fmt.Sprintf("/tournaments/%s/rounds/%d", f.ev.ID, n)).Want(t, http.StatusOK).Decode(t, &again)
			if got := f.registration(again); got != want[n-1] {
				t.Fatalf("GET round %d: %s, want %s", n, got, want[n-1])
			}
			f.finishRound(t, s, r, nil)
		}
	}
	check(byRating, bergerRounds([]int{4, 6, 2, 8, 7, 3, 1, 5}))

	byDraw := scrambledField(t, s, `{"name":"By lot","system":"roundRobin","numbering":"draw"}`)
	sum := sha256.Sum256([]byte("numbering/" + byDraw.ev.ID))
	holder := []int{1, 2, 3, 4, 5, 6, 7, 8}
	rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16]))).
		Shuffle(len(holder), func(i, j int) { holder[i], holder[j] = holder[j], holder[i] })
	check(byDraw, bergerRounds(holder))

	bad := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: `{"name":"x","system":"knockout","numbering":"draw"}`}).Want(t, http.StatusBadRequest)
	if msg := bad.JSON()["error"].(map[string]any)["message"].(string); !strings.HasPrefix(msg, "numbering") {
		t.Fatalf("numbering on a knockout: %s", bad.Body)
	}
}

// S-3 single elimination with a third-place match over HTTP: 4 players, the
// lower registration number wins; round 2 is the final 1 v 2 and the
// third-place match 3 v 4, then the event is complete.
func TestKnockoutThirdPlace_S3_OverHTTP(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Cup","system":"knockout","knockout":{"thirdPlace":true}}`, 4)
	k := f.ev.T["knockout"].(map[string]any)
	if k["thirdPlace"] != true || k["tieBreak"] != "rapid-10/40+5/30" {
		t.Fatalf("knockout options %v", k)
	}
	r1 := f.pair(t, s, nil, http.StatusCreated)
	f.finishRound(t, s, r1, nil)
	r2 := f.pair(t, s, nil, http.StatusCreated)
	var got []string
	for _, p := range r2.Pairings {
		pair := []int{indexOf(f.players, p.Red) + 1, indexOf(f.players, p.Black) + 1}
		slices.Sort(pair)
		got = append(got, fmt.Sprint(pair))
	}
	if fmt.Sprint(got) != "[[1 2] [3 4]]" {
		t.Fatalf("round 2 %v, want the final [1 2] and the third-place match [3 4]", got)
	}
	f.finishRound(t, s, r2, nil)
	f.pair(t, s, nil, http.StatusUnprocessableEntity)
	for body, field := range map[string]string{
		`{"name":"x","system":"doubleElimination","knockout":{"thirdPlace":true}}`:      "knockout.thirdPlace",
		`{"name":"x","system":"knockout","knockout":{"reset":false}}`:                   "knockout.reset",
		`{"name":"x","system":"knockout","knockout":{"tieBreak":"rapid-1/1"}}`:          "knockout.tieBreak",
		`{"name":"x","system":"swiss","rounds":5,"knockout":{"tieBreak":"rapid-5/30"}}`: "knockout",
	} {
		bad := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: body}).Want(t, http.StatusBadRequest)
		if msg := bad.JSON()["error"].(map[string]any)["message"].(string); !strings.HasPrefix(msg, field+":") {
			t.Errorf("%s: %s, want an error on %s", body, bad.Body, field)
		}
	}
}

// S-4 Swiss then knockout with four finalists over HTTP: 8 players, 3 Swiss
// rounds; the top four of the standings after round 3 play 1st v 4th and
// 2nd v 3rd, then the final and the third-place match.
func TestSwissKnockoutFourFinalists_S4_OverHTTP(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Masters","system":"swissKnockout","rounds":3,"knockout":{"finalists":4}}`, 8)
	if k := f.ev.T["knockout"].(map[string]any); k["finalists"] != 4.0 {
		t.Fatalf("knockout options %v", k)
	}
	for range 3 {
		f.finishRound(t, s, f.pair(t, s, nil, http.StatusCreated), nil)
	}
	var st struct {
		Rows []struct{ PlayerID string }
	}
	s.Get("/tournaments/"+f.ev.ID+"/standings?round=3").Want(t, http.StatusOK).Decode(t, &st)
	top := func(i int) int { return indexOf(f.players, st.Rows[i].PlayerID) + 1 }
	meetings := func(r roundJSON) map[string]bool {
		out := map[string]bool{}
		for _, p := range r.Pairings {
			pair := []int{indexOf(f.players, p.Red) + 1, indexOf(f.players, p.Black) + 1}
			slices.Sort(pair)
			out[fmt.Sprint(pair)] = true
		}
		return out
	}
	sorted := func(a, b int) string { return fmt.Sprint([]int{min(a, b), max(a, b)}) }
	r4 := f.pair(t, s, nil, http.StatusCreated)
	got := meetings(r4)
	if len(got) != 2 || !got[sorted(top(0), top(3))] || !got[sorted(top(1), top(2))] {
		t.Fatalf("semi-finals %v, want 1st v 4th %s and 2nd v 3rd %s", got, sorted(top(0), top(3)), sorted(top(1), top(2)))
	}
	f.finishRound(t, s, r4, nil)
	r5 := f.pair(t, s, nil, http.StatusCreated)
	if len(r5.Pairings) != 2 {
		t.Fatalf("round 5: %+v, want the final and the third-place match", r5.Pairings)
	}
	f.finishRound(t, s, r5, nil)
	f.pair(t, s, nil, http.StatusUnprocessableEntity)
	bad := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: `{"name":"x","system":"swissKnockout","rounds":3,"knockout":{"finalists":3}}`, Invalid: true}).Want(t, http.StatusBadRequest)
	if msg := bad.JSON()["error"].(map[string]any)["message"].(string); !strings.HasPrefix(msg, "knockout.finalists:") {
		t.Fatalf("three finalists: %s", bad.Body)
	}
}

// S-1 multi-game matches over HTTP: a 4-player round robin with
// gamesPerMatch 2 creates both games of every match when the round is
// paired, the second with colours swapped, each at the event's control.
func TestRoundRobinTwoGameMatches_S1_OverHTTP(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Double games","system":"roundRobin","gamesPerMatch":2,"timeControl":"rapid-10/40+5/30"}`, 4)
	r := f.pair(t, s, nil, http.StatusCreated)
	if got := f.registration(r); got != "1-4 4-1 2-3 3-2" {
		t.Fatalf("round 1 %s, want 1-4 4-1 2-3 3-2 (two games per pairing, colours alternating)", got)
	}
	for _, p := range r.Pairings {
		g := s.Get("/games/"+p.GameID).Want(t, http.StatusOK).JSON()
		if tc := g["timeControl"].(map[string]any); tc["name"] != "rapid-10/40+5/30" {
			t.Errorf("game %s plays at %v", p.GameID, tc)
		}
	}
}

// TestCreate_P2_SwissRoundsWarning: 002 appendix 3 §1.2 (尽量不要少于七轮 … 个人赛
// 的轮数宜为单数) — an individual Swiss of fewer than 7 or an even number of
// rounds is created, with a warning naming P-2; 7 or 9 rounds and a team
// Swiss get none.
func TestCreate_P2_SwissRoundsWarning(t *testing.T) {
	s := apitest.New(t)
	for _, tc := range []struct {
		body string
		warn bool
	}{
		{`{"name":"x","system":"swiss","rounds":5}`, true},
		{`{"name":"x","system":"swiss","rounds":8}`, true},
		{`{"name":"x","system":"swissKnockout","rounds":6}`, true},
		{`{"name":"x","system":"swiss","rounds":7}`, false},
		{`{"name":"x","system":"swiss","rounds":9}`, false},
		{`{"name":"x","system":"swiss","rounds":4,"teams":true,"boards":4}`, false},
		{`{"name":"x","system":"roundRobin"}`, false},
	} {
		var out struct {
			Warnings []struct{ Code, Message, Rule string } `json:"warnings"`
		}
		s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: tc.body}).Want(t, http.StatusCreated).Decode(t, &out)
		if got := len(out.Warnings) > 0; got != tc.warn {
			t.Errorf("%s: warnings %+v, want any: %v", tc.body, out.Warnings, tc.warn)
			continue
		}
		if tc.warn && (out.Warnings[0].Code != "swiss_rounds" || out.Warnings[0].Rule != "P-2" || out.Warnings[0].Message == "") {
			t.Errorf("%s: warning %+v", tc.body, out.Warnings[0])
		}
	}
}
