package httpapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// numberedPlayer is a player of GET /tournaments/{tid}/players.
type numberedPlayer struct {
	ID          string `json:"id"`
	Number      int    `json:"number"`
	EntryNumber int    `json:"entryNumber"`
}

// numberedRound is a round with the players' numbers on its pairings.
type numberedRound struct {
	Round    int `json:"round"`
	Pairings []struct {
		Table       int    `json:"table"`
		Red         string `json:"red"`
		Black       string `json:"black"`
		RedNumber   int    `json:"redNumber"`
		BlackNumber int    `json:"blackNumber"`
		GameID      string `json:"gameId"`
		Explanation *struct {
			Opponent     string `json:"opponent"`
			ColourReason string `json:"colourReason"`
		} `json:"explanation"`
	} `json:"pairings"`
}

func listNumbers(t *testing.T, s *apitest.Server, tid string) ([]numberedPlayer, map[string]int) {
	t.Helper()
	var out struct {
		Players []numberedPlayer `json:"players"`
	}
	s.Get("/tournaments/"+tid+"/players").Want(t, http.StatusOK).Decode(t, &out)
	byID := map[string]int{}
	for _, p := range out.Players {
		byID[p.ID] = p.Number
	}
	return out.Players, byID
}

// readRound reads round n with its explanations in lang (en or zh).
func readRound(t *testing.T, s *apitest.Server, tid string, n int, lang string) numberedRound {
	t.Helper()
	var r numberedRound
	s.Do(apitest.Req{Method: "GET", Path: fmt.Sprintf("/tournaments/%s/rounds/%d?explain=true", tid, n), Header: map[string]string{"Accept-Language": lang}}).
		Want(t, http.StatusOK).Decode(t, &r)
	return r
}

// P-3 numbers (002 appendix 3 §1.3: 除第一轮需抽签确定每个运动员(队)序号):
// the lot of round 1 sets each player's number, and from then on every
// view shows it. Before the draw the number is the entry number. A
// 10-player Swiss then reads 1-2, 4-3, 5-6, 8-7, 9-10 by the numbers shown
// (odd tables the smaller number red, even tables the larger), in the
// round, the player list, the explanations, the games, the standings and
// the crosstable; the entry number stays as entryNumber; a late entrant
// takes the next free number.
func TestDrawnNumbers_P3_OverHTTP(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Drawn numbers","system":"swiss","rounds":7}`, 10)
	tid := f.ev.ID

	before, _ := listNumbers(t, s, tid)
	for i, p := range before {
		if p.ID != f.players[i].ID || p.Number != i+1 || p.EntryNumber != i+1 {
			t.Fatalf("before the draw, player %d: %+v, want number = entry number = %d", i+1, p, i+1)
		}
	}

	f.pair(t, s, map[string]any{"round": 1}, http.StatusCreated)
	players, number := listNumbers(t, s, tid)
	var shown, entries []int
	for i, p := range players {
		shown, entries = append(shown, p.Number), append(entries, p.EntryNumber)
		if p.Number != i+1 {
			t.Errorf("list position %d holds number %d: the list is in number order", i+1, p.Number)
		}
		// The rating numbering: entries 1…5 (the higher ratings) are the
		// upper half and draw the odd numbers.
		if upper := p.EntryNumber <= 5; upper != (p.Number%2 == 1) {
			t.Errorf("entry %d drew %d: the upper half takes the odd numbers", p.EntryNumber, p.Number)
		}
		if f.players[p.EntryNumber-1].ID != p.ID {
			t.Errorf("entry number %d is not player %s's registration", p.EntryNumber, p.ID)
		}
	}
	slices.Sort(entries)
	if !slices.Equal(entries, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) || len(shown) != 10 {
		t.Fatalf("entry numbers %v, numbers %v", entries, shown)
	}

	r := readRound(t, s, tid, 1, "en")
	zh := readRound(t, s, tid, 1, "zh")
	var got []string
	for _, p := range r.Pairings {
		got = append(got, fmt.Sprintf("%d-%d", p.RedNumber, p.BlackNumber))
		if p.RedNumber != number[p.Red] || p.BlackNumber != number[p.Black] {
			t.Errorf("table %d: numbers %d-%d, the player list says %d-%d", p.Table, p.RedNumber, p.BlackNumber, number[p.Red], number[p.Black])
		}
		// The explanation names the table's players by the same numbers.
		// The explanations, in both languages, name the table's smaller
		// number as the one who chose (P-3's neighbour pairing).
		if want := fmt.Sprintf("no. %d chose first", min(p.RedNumber, p.BlackNumber)); p.Explanation == nil || !strings.HasPrefix(p.Explanation.Opponent, want) {
			t.Errorf("table %d: explanation %+v, want %q", p.Table, p.Explanation, want)
		}
		if want := fmt.Sprintf("%d号先编", min(p.RedNumber, p.BlackNumber)); zh.Pairings[p.Table-1].Explanation == nil || !strings.HasPrefix(zh.Pairings[p.Table-1].Explanation.Opponent, want) {
			t.Errorf("table %d: explanation %+v, want %q", p.Table, zh.Pairings[p.Table-1].Explanation, want)
		}
		var g struct {
			Tournament struct {
				RedNumber   int `json:"redNumber"`
				BlackNumber int `json:"blackNumber"`
			} `json:"tournament"`
		}
		s.Get("/games/"+p.GameID).Want(t, http.StatusOK).Decode(t, &g)
		if g.Tournament.RedNumber != p.RedNumber || g.Tournament.BlackNumber != p.BlackNumber {
			t.Errorf("game of table %d shows %d-%d, want %d-%d", p.Table, g.Tournament.RedNumber, g.Tournament.BlackNumber, p.RedNumber, p.BlackNumber)
		}
	}
	if want := "1-2 4-3 5-6 8-7 9-10"; strings.Join(got, " ") != want {
		t.Fatalf("round 1 reads %s by the numbers shown, want %s", strings.Join(got, " "), want)
	}
	// The round's CSV ends each table with the two numbers.
	var fromCSV []string
	for _, row := range readCSV(t, s.Get("/tournaments/"+tid+"/rounds/1?format=csv").Want(t, http.StatusOK))[1:] {
		fromCSV = append(fromCSV, row[len(row)-2]+"-"+row[len(row)-1])
	}
	if want := "1-2 4-3 5-6 8-7 9-10"; strings.Join(fromCSV, " ") != want {
		t.Errorf("round 1 CSV reads %s, want %s", strings.Join(fromCSV, " "), want)
	}

	// Results in: the standings and the crosstable show the same numbers.
	for _, p := range r.Pairings {
		finish(t, s, tid, 1, p.Table, p.GameID, p.Red, p.Black, "1-0")
	}
	var st struct {
		Rows []struct {
			PlayerID string `json:"playerId"`
			Number   int    `json:"number"`
		} `json:"rows"`
	}
	s.Get("/tournaments/"+tid+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	for _, row := range st.Rows {
		if row.Number != number[row.PlayerID] {
			t.Errorf("standings: %s number %d, want %d", row.PlayerID, row.Number, number[row.PlayerID])
		}
	}
	var ct struct {
		Rows []struct {
			PlayerID string `json:"playerId"`
			Number   int    `json:"number"`
			Cells    []struct {
				Opponent       *string `json:"opponent"`
				OpponentNumber int     `json:"opponentNumber"`
			} `json:"cells"`
		} `json:"rows"`
	}
	s.Get("/tournaments/"+tid+"/crosstable").Want(t, http.StatusOK).Decode(t, &ct)
	for i, row := range ct.Rows {
		if row.Number != number[row.PlayerID] || row.Number != i+1 {
			t.Errorf("crosstable row %d: %s number %d, want %d in number order", i+1, row.PlayerID, row.Number, number[row.PlayerID])
		}
		for _, c := range row.Cells {
			if c.Opponent != nil && c.OpponentNumber != number[*c.Opponent] {
				t.Errorf("crosstable: %s met %s as no. %d, want %d", row.PlayerID, *c.Opponent, c.OpponentNumber, number[*c.Opponent])
			}
		}
	}
	csv := s.Get("/tournaments/"+tid+"/crosstable?format=csv").Want(t, http.StatusOK).Body
	if lines := strings.Split(string(csv), "\n"); len(lines) < 2 || !strings.HasPrefix(lines[1], "1,") {
		t.Errorf("crosstable CSV does not start with number 1:\n%s", csv)
	}

	// A late entrant takes the next free number; its entry number is its registration.
	var late created
	s.Post("/tournaments/"+tid+"/players", f.ev.Token, map[string]any{"name": "Late", "rating": 2500}).Want(t, http.StatusCreated).Decode(t, &late)
	if late.P["number"] != float64(11) || late.P["entryNumber"] != float64(11) {
		t.Errorf("late entrant: %v, want number and entry number 11", late.P)
	}
	if _, n := listNumbers(t, s, tid); n[late.ID] != 11 || !maps10Unchanged(number, n) {
		t.Errorf("after the late entry the numbers read %v (before %v)", n, number)
	}
}

// maps10Unchanged reports whether every number of before reads the same in after.
func maps10Unchanged(before, after map[string]int) bool {
	for id, n := range before {
		if after[id] != n {
			return false
		}
	}
	return true
}

// P-11 with drawn numbers (002 appendix 3 §4(8): 两号相加之和，奇数小号先走，
// 偶数大号先走): in round 2 the five red winners of round 1 have the same
// colour history, so between two of them the sum of their numbers decides
// — the numbers drawn for round 1, the ones every view shows.
func TestNumberSum_P11_DrawnNumbers_OverHTTP(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Number sum","system":"swiss","rounds":7}`, 10)
	tid := f.ev.ID
	r1 := f.pair(t, s, map[string]any{"round": 1}, http.StatusCreated)
	for _, p := range r1.Pairings {
		finish(t, s, tid, 1, p.Table, p.GameID, p.Red, p.Black, "1-0")
	}
	f.pair(t, s, map[string]any{"round": 2}, http.StatusCreated)
	_, number := listNumbers(t, s, tid)
	cases := 0
	for _, p := range readRound(t, s, tid, 2, "en").Pairings {
		if p.Explanation == nil || p.Explanation.ColourReason != "numberSum" {
			continue
		}
		cases++
		red, black := number[p.Red], number[p.Black]
		if p.RedNumber != red || p.BlackNumber != black {
			t.Errorf("table %d shows %d-%d, the player list %d-%d", p.Table, p.RedNumber, p.BlackNumber, red, black)
		}
		if odd := (red+black)%2 == 1; odd != (red < black) {
			t.Errorf("table %d: no. %d red v no. %d: sum %d, want the %s number red", p.Table, red, black, red+black, map[bool]string{true: "smaller", false: "larger"}[odd])
		}
	}
	if cases < 2 {
		t.Fatalf("%d pairings decided by the number sum, want the red winners' (at least 2)", cases)
	}
}
