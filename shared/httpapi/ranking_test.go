package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// playTwoGameRoundRobin plays a four-player round robin of two-game matches
// over HTTP: outcomes[{i, j}] are player i's results against player j, one
// per game, "W", "D" or "L". It returns the final standings.
func playTwoGameRoundRobin(t *testing.T, s *apitest.Server, settings string, outcomes map[[2]int][]string) (field, standingsJSON) {
	t.Helper()
	f := newField(t, s, settings, 4)
	idx := map[string]int{}
	for i, p := range f.players {
		idx[p.ID] = i
	}
	left := map[[2]int][]string{}
	for k, v := range outcomes {
		left[k] = append([]string(nil), v...)
	}
	for range 3 {
		r := f.pair(t, s, nil, http.StatusCreated)
		for _, p := range r.Pairings {
			red, black := idx[p.Red], idx[p.Black]
			key, flip := [2]int{red, black}, false
			if _, ok := left[key]; !ok {
				key, flip = [2]int{black, red}, true
			}
			out := left[key][0]
			left[key] = left[key][1:]
			if flip { // the outcome is black's
				out = map[string]string{"W": "L", "L": "W", "D": "D"}[out]
			}
			res := map[string]string{"W": "1-0", "D": "1/2-1/2", "L": "0-1"}[out]
			s.Post("/games/"+p.GameID+"/result", f.ev.Token, map[string]string{"result": res}).Want(t, http.StatusOK)
		}
	}
	var st standingsJSON
	s.Get("/tournaments/"+f.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	return f, st
}

// TestStandings_R3_TwoGameRoundRobinRanksByMatchPoints over HTTP, 001 §14.2:
// "在两局或多局循环制个人比赛中，根据个人场分排列名次，场分多者列前。如场分相等，按以下
// 顺序区分:局分总和、胜局、直胜、犯规、后走胜局". A plays 7 game points but takes
// 3 match points; B plays 6 and takes 4: B is first. The event option
// rankByGamePoints (000 ch.7 §2 第5条 "均采用局分累计计算成绩和排列名次") ranks
// by the game points added up instead: A is first.
func TestStandings_R3_TwoGameRoundRobinRanksByMatchPoints(t *testing.T) {
	const A, B, C, D = 0, 1, 2, 3
	outcomes := map[[2]int][]string{
		{A, B}: {"W", "W"}, // A 4, B 0: A's match
		{A, C}: {"D", "D"}, // 2 each: a drawn match
		{A, D}: {"D", "L"}, // A 1, D 3: D's match
		{B, C}: {"W", "D"}, // B 3, C 1
		{B, D}: {"W", "D"}, // B 3, D 1
		{C, D}: {"D", "D"},
	}
	s := apitest.New(t)
	f, st := playTwoGameRoundRobin(t, s, `{"name":"Two-game RR","system":"roundRobin","gamesPerMatch":2}`, outcomes)
	if len(st.Chain) == 0 || st.Chain[0] != "matchPoints" || st.Chain[1] != "gamePoints" {
		t.Fatalf("chain %v, want R-3's matchPoints, gamePoints, …", st.Chain)
	}
	want := []int{B, A, D, C}
	for i, w := range want {
		if st.Rows[i].PlayerID != f.players[w].ID {
			t.Fatalf("by 场分 row %d is %s, want player %d (rows %+v)", i+1, st.Rows[i].PlayerID, w+1, st.Rows)
		}
	}

	f, st = playTwoGameRoundRobin(t, s, `{"name":"Two-game RR, 局分累计","system":"roundRobin","gamesPerMatch":2,"rankByGamePoints":true}`, outcomes)
	if st.Chain[0] != "points" {
		t.Fatalf("with rankByGamePoints the chain is %v, want points first", st.Chain)
	}
	if st.Rows[0].PlayerID != f.players[A].ID || st.Rows[3].PlayerID != f.players[C].ID {
		t.Errorf("by 局分累计 the order is %+v, want A first and C last", st.Rows)
	}

	// The option is refused where it means nothing.
	for _, body := range []string{
		`{"name":"x","system":"roundRobin","rankByGamePoints":true}`,
		`{"name":"x","system":"swiss","gamesPerMatch":2,"rankByGamePoints":true}`,
		`{"name":"x","system":"roundRobin","gamesPerMatch":2,"rankByGamePoints":true,"tiebreaks":["points","wins"]}`,
	} {
		r := s.Post("/tournaments", "", body)
		if r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_field" {
			t.Errorf("%s: %d %s, want 400 invalid_field", body, r.Status, r.Body)
		}
	}
}

// TestScoring_K1_AnyPoints over HTTP, 001 §13.3: "可根据比赛需要调整双方胜、负、和
// 的记分标准。如胜方计3分、负方计0分、和棋各计1分或胜方计3分、负方计0分、先手方和棋
// 计1分、后手方和棋计2分等" — the 等 admits other points: "4-2-0" scores a draw
// 2 each, and "5-1/3-0" a draw 1 to red and 3 to black; points that make a
// draw worth more than a win, or a loss as much as a win, are refused.
func TestScoring_K1_AnyPoints(t *testing.T) {
	s := apitest.New(t)
	for _, tc := range []struct {
		scoring   string
		red, blk  int
		resultStr string
	}{
		{"4-2-0", 2, 2, "1/2-1/2"},
		{"5-1/3-0", 1, 3, "1/2-1/2"},
		{"4-2-0", 4, 0, "1-0"},
	} {
		pg := pairTwo(t, s, `{"name":"Points","system":"swiss","rounds":1,"scoring":"`+tc.scoring+`"}`)
		if got := s.Get("/tournaments/"+pg.ev.ID).Want(t, http.StatusOK).JSON()["scoring"]; got != tc.scoring {
			t.Errorf("the event shows scoring %v, want %s", got, tc.scoring)
		}
		s.Post("/games/"+pg.gid+"/result", pg.arb, map[string]string{"result": tc.resultStr}).Want(t, http.StatusOK)
		var st standingsJSON
		s.Get("/tournaments/"+pg.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
		points := map[string]int{}
		for _, r := range st.Rows {
			points[r.PlayerID] = r.Points
		}
		if points[pg.red.ID] != tc.red || points[pg.black.ID] != tc.blk {
			t.Errorf("%s, %s: red %d black %d, want %d and %d", tc.scoring, tc.resultStr, points[pg.red.ID], points[pg.black.ID], tc.red, tc.blk)
		}
	}
	for _, bad := range []string{"1-2-0", "2-1-2", "x-1-0", "3-1/2", "101-0-0"} {
		r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: `{"name":"x","scoring":"` + bad + `"}`, Invalid: true})
		wantError(t, r, http.StatusBadRequest, "invalid_field", "K-1")
	}
}

// TestKnockout_S3_PlacingMatches over HTTP, 001 §10.3: "可酌情采用单淘汰制 …
// 并适当安排预选赛、附加赛". An 8-player knockout with "placings": 8 plays the
// quarter-final losers' bracket for 5–8 alongside the semi-finals, then the
// final, the third-place match, 5–6 and 7–8 together: each of the eight has
// a place of its own. Without it the quarter-final losers share 5th.
func TestKnockout_S3_PlacingMatches(t *testing.T) {
	s := apitest.New(t)
	play := func(settings string, rounds int) (field, []int) {
		f := newField(t, s, settings, 8)
		for n := 1; n <= rounds; n++ {
			r := f.pair(t, s, nil, http.StatusCreated)
			if len(r.Pairings) != 4 && (n == 1 || strings.Contains(settings, "placings")) {
				t.Fatalf("round %d has %d games, want 4", n, len(r.Pairings))
			}
			for _, p := range r.Pairings { // the better seed (lower number) wins
				res := "1-0"
				if indexOf(f.players, p.Black) < indexOf(f.players, p.Red) {
					res = "0-1"
				}
				s.Post("/games/"+p.GameID+"/result", f.ev.Token, map[string]string{"result": res}).Want(t, http.StatusOK)
			}
		}
		f.pair(t, s, nil, http.StatusUnprocessableEntity)
		var out struct {
			Rows []struct {
				Place    int
				PlayerID string `json:"playerId"`
			}
		}
		s.Get("/tournaments/"+f.ev.ID+"/standings?view=overall").Want(t, http.StatusOK).Decode(t, &out)
		places := make([]int, 8)
		for _, r := range out.Rows {
			places[indexOf(f.players, r.PlayerID)] = r.Place
		}
		return f, places
	}
	f, places := play(`{"name":"Cup with placings","system":"knockout","knockout":{"placings":8}}`, 3)
	if got := fmt.Sprint(places); got != "[1 2 3 4 5 6 7 8]" {
		t.Errorf("places with placings to 8: %s, want every player its own", got)
	}
	if k := s.Get("/tournaments/"+f.ev.ID).Want(t, http.StatusOK).JSON()["knockout"].(map[string]any); k["placings"] != float64(8) || k["thirdPlace"] != true {
		t.Errorf("knockout options %v", k)
	}
	_, places = play(`{"name":"Cup","system":"knockout","knockout":{"thirdPlace":true}}`, 3)
	if got := fmt.Sprint(places); got != "[1 2 3 4 5 5 5 5]" {
		t.Errorf("places with the third-place match only: %s", got)
	}
	for _, bad := range []string{
		`{"name":"x","system":"knockout","knockout":{"placings":4}}`,
		`{"name":"x","system":"doubleElimination","knockout":{"placings":8}}`,
	} {
		r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: bad, Invalid: true})
		wantError(t, r, http.StatusBadRequest, "invalid_field", "S-3")
	}
}
