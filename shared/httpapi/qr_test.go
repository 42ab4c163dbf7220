package httpapi_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// TestQRCodes: the organiser gets one SVG per link, each exactly the
// library's QR symbol (the SVG's dark runs, read back, are its bitmap);
// anyone else, an empty or oversized list and an overlong text are refused
// and nothing is encoded.
func TestQRCodes(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Slips","rounds":3}`, 2)
	path := "/tournaments/" + f.ev.ID + "/qr"
	link := "http://127.0.0.1:3000/t/" + f.ev.ID + "#token=" + f.players[0].Token
	var out struct{ SVGs []string }
	s.Post(path, f.ev.Token, map[string]any{"texts": []string{link, "table 1"}}).Want(t, http.StatusOK).Decode(t, &out)
	if len(out.SVGs) != 2 {
		t.Fatalf("want 2 SVGs, got %d", len(out.SVGs))
	}
	q, err := qrcode.New(link, qrcode.Medium)
	if err != nil {
		t.Fatal(err)
	}
	want := q.Bitmap()
	got := svgBitmap(t, out.SVGs[0], len(want))
	for y := range want {
		for x := range want[y] {
			if got[y][x] != want[y][x] {
				t.Fatalf("module (%d,%d): SVG %v, library %v", x, y, got[y][x], want[y][x])
			}
		}
	}
	if out.SVGs[0] == out.SVGs[1] {
		t.Error("two texts gave the same code")
	}

	for name, c := range map[string]struct {
		token  string
		body   any
		status int
		code   string
	}{
		"no token":         {"", map[string]any{"texts": []string{link}}, http.StatusUnauthorized, "unauthorized"},
		"a player":         {f.players[0].Token, map[string]any{"texts": []string{link}}, http.StatusForbidden, "forbidden"},
		"no texts":         {f.ev.Token, map[string]any{"texts": []string{}}, http.StatusBadRequest, "invalid_field"},
		"too many":         {f.ev.Token, map[string]any{"texts": make([]string, 601)}, http.StatusBadRequest, "invalid_field"},
		"an empty text":    {f.ev.Token, map[string]any{"texts": []string{""}}, http.StatusBadRequest, "invalid_field"},
		"an overlong one":  {f.ev.Token, map[string]any{"texts": []string{strings.Repeat("x", 401)}}, http.StatusBadRequest, "invalid_field"},
		"an unknown field": {f.ev.Token, map[string]any{"texts": []string{link}, "size": 3}, http.StatusBadRequest, "unknown_field"},
	} {
		t.Run(name, func(t *testing.T) {
			r := s.Do(apitest.Req{Method: http.MethodPost, Path: path, Token: c.token, Body: c.body, Invalid: c.status == http.StatusBadRequest}).Want(t, c.status)
			if got := r.ErrorCode(); got != c.code {
				t.Errorf("code %q, want %q", got, c.code)
			}
		})
	}
}

var svgRun = regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`)

// svgBitmap reads qrSVG's path back into modules.
func svgBitmap(t *testing.T, svg string, n int) [][]bool {
	t.Helper()
	if !strings.Contains(svg, fmt.Sprintf(`viewBox="0 0 %d %d"`, n, n)) {
		t.Fatalf("the SVG is not %d modules square: %.120s", n, svg)
	}
	bm := make([][]bool, n)
	for i := range bm {
		bm[i] = make([]bool, n)
	}
	for _, m := range svgRun.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		w, _ := strconv.Atoi(m[3])
		for i := range w {
			bm[y][x+i] = true
		}
	}
	return bm
}

// TestRefusalParams: a refusal carries what its message names as params
// a page can say in its own words — the unfinished games by round and
// table and the option that pairs anyway, the round already started — and
// no game id.
func TestRefusalParams(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Params","rounds":3}`, 4)
	r := f.pair(t, s, map[string]any{}, http.StatusCreated)
	s.Post("/tournaments/"+f.ev.ID+"/rounds/1/start", f.ev.Token, map[string]any{}).Want(t, http.StatusOK)
	again := s.Post("/tournaments/"+f.ev.ID+"/rounds/1/start", f.ev.Token, map[string]any{}).Want(t, http.StatusConflict).JSON()
	if p := again["error"].(map[string]any)["params"].(map[string]any); p["round"] != float64(1) {
		t.Errorf("round_already_started params %v, want round 1", p)
	}
	res := s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, map[string]any{}).Want(t, http.StatusUnprocessableEntity)
	body := res.JSON()["error"].(map[string]any)
	if body["code"] != "unfinished_games" {
		t.Fatalf("code %v", body["code"])
	}
	p := body["params"].(map[string]any)
	if p["option"] != "unfinishedAsDraws" || p["count"] != float64(len(r.Pairings)) {
		t.Errorf("params %v", p)
	}
	games := p["games"].([]any)
	if len(games) != len(r.Pairings) {
		t.Fatalf("games %v, want %d", games, len(r.Pairings))
	}
	for i, g := range games {
		if g := g.(map[string]any); g["round"] != float64(1) || g["table"] != float64(r.Pairings[i].Table) {
			t.Errorf("game %d: %v", i, g)
		}
	}
	enc := fmt.Sprint(p)
	for _, pr := range r.Pairings {
		if strings.Contains(enc, pr.GameID) {
			t.Errorf("params name game id %s: %s", pr.GameID, enc)
		}
	}
}
