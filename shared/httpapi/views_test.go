package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/tournament"
)

// standingsPage is the part of a standings or crosstable response the
// view tests compare.
type standingsPage struct {
	Round int  `json:"round"`
	Live  bool `json:"live"`
	Rows  []struct {
		Rank     int    `json:"rank"`
		PlayerID string `json:"playerId"`
		Points   int    `json:"points"`
	} `json:"rows"`
	Total  int     `json:"total"`
	Offset int     `json:"offset"`
	Next   *string `json:"next"`
}

func getTable(t *testing.T, s *apitest.Server, path string) standingsPage {
	t.Helper()
	var p standingsPage
	s.Get(path).Want(t, http.StatusOK).Decode(t, &p)
	return p
}

func points(p standingsPage) map[string]int {
	out := map[string]int{}
	for _, r := range p.Rows {
		out[r.PlayerID] = r.Points
	}
	return out
}

// A result written while a standings view is being stored (after the read
// that built it read the event) leaves that view stale, and the next read
// rebuilds it: the view never hides a result whose write has returned.
// The default table moves to round 1 as soon as its last result is in.
func TestViews_ResultDuringRebuild_NotServedStale(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Open","system":"swiss","rounds":3}`, 4)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	p1, p2 := r1.Pairings[0], r1.Pairings[1]
	finish(t, s, f.ev.ID, 1, p1.Table, p1.GameID, p1.Red, p1.Black, "1-0")
	base := "/tournaments/" + f.ev.ID + "/standings"
	for range 2 { // built, then served from the view
		if got := getTable(t, s, base); got.Round != 0 {
			t.Fatalf("default table after round %d while round 1 is in play", got.Round)
		}
		if got := getTable(t, s, base+"?live=true"); points(got)[p1.Red] != 2 || !got.Live {
			t.Fatalf("live table: %+v", got)
		}
	}
	// The first read of the table after round 1 builds its view; the
	// second result lands just as that view is stored.
	var fired atomic.Bool
	s.DB.Intercept(func(op string, body []byte) embedded.Fault {
		if op == "PutItem" && strings.Contains(string(body), "D#standings#0001") && fired.CompareAndSwap(false, true) {
			finish(t, s, f.ev.ID, 1, p2.Table, p2.GameID, p2.Red, p2.Black, "0-1")
		}
		return embedded.Serve
	})
	during := getTable(t, s, base+"?round=1")
	s.DB.Intercept(nil)
	if !fired.Load() {
		t.Fatal("the live view was not rebuilt")
	}
	if points(during)[p2.Black] != 0 {
		t.Fatalf("the read built before the result saw it: %+v", during)
	}
	for range 2 {
		after := getTable(t, s, base+"?round=1")
		if points(after)[p2.Black] != 2 || after.Live {
			t.Fatalf("a stale view hid the result written during its build: %+v", after)
		}
		if live := getTable(t, s, base+"?live=true"); points(live)[p2.Black] != 2 {
			t.Fatalf("a stale view hid the result written during its build: %+v", after)
		}
		if def := getTable(t, s, base); def.Round != 1 || points(def)[p2.Black] != 2 {
			t.Fatalf("default table after round 1's last result: round %d, %+v", def.Round, def)
		}
	}
}

// A corrected result (the result item rewritten) and a withdrawal (a
// player item) both show in the next read of a view built before them.
func TestViews_CorrectionRebuildsFinishedRoundTable(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Open","system":"swiss","rounds":3}`, 4)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	f.finishRound(t, s, r1, nil)
	p := r1.Pairings[0]
	path := "/tournaments/" + f.ev.ID + "/standings?round=1"
	before := getTable(t, s, path)
	getTable(t, s, path)
	var res tournament.Result
	rec, err := s.Store.Get(t.Context(), "T#"+f.ev.ID, fmt.Sprintf("X#0001#%04d", p.Table))
	if err != nil || json.Unmarshal(rec.Doc, &res) != nil {
		t.Fatal(err)
	}
	res.Result = result.BlackWins
	rec.Doc, _ = json.Marshal(res)
	if err := s.Store.Put(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	after := getTable(t, s, path)
	if points(before)[p.Red] != 2 || points(after)[p.Red] != 0 || points(after)[p.Black] != 2 {
		t.Fatalf("correction not shown: before %v after %v", points(before), points(after))
	}
	var round roundJSON
	s.Get("/tournaments/"+f.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &round)
	if got := round.Pairings[0].Result; got == nil || *got != "0-1" {
		t.Fatalf("round view after the correction: %v", got)
	}
}

// Public reads carry an ETag; the same request with If-None-Match answers
// 304 without a body while nothing changed, and 200 with a new tag after a
// result. A complete round may be cached longer than a live one.
func TestViews_ETagAndNotModified(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Open","system":"swiss","rounds":3}`, 4)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	round := "/tournaments/" + f.ev.ID + "/rounds/1"
	for _, path := range []string{"/tournaments/" + f.ev.ID + "/standings?live=true", round, "/tournaments/" + f.ev.ID + "/crosstable?live=true"} {
		first := s.Get(path).Want(t, http.StatusOK)
		tag := first.Header.Get("ETag")
		if tag == "" || !strings.HasPrefix(first.Header.Get("Cache-Control"), "public, max-age=") {
			t.Fatalf("%s: ETag %q, Cache-Control %q", path, tag, first.Header.Get("Cache-Control"))
		}
		again := s.Do(apitest.Req{Method: "GET", Path: path, Header: map[string]string{"If-None-Match": tag}})
		if again.Status != http.StatusNotModified || len(again.Body) != 0 || again.Header.Get("ETag") != tag {
			t.Fatalf("%s: If-None-Match %s: %d %q", path, tag, again.Status, again.Body)
		}
		other := s.Do(apitest.Req{Method: "GET", Path: path, Header: map[string]string{"If-None-Match": `"0000", W/"1111"`}})
		other.Want(t, http.StatusOK)
	}
	live := s.Get(round).Want(t, http.StatusOK)
	if cc := live.Header.Get("Cache-Control"); cc != "public, max-age=5" {
		t.Fatalf("round in play: Cache-Control %q", cc)
	}
	f.finishRound(t, s, r1, nil)
	done := s.Do(apitest.Req{Method: "GET", Path: round, Header: map[string]string{"If-None-Match": live.Header.Get("ETag")}}).Want(t, http.StatusOK)
	if done.Header.Get("ETag") == live.Header.Get("ETag") {
		t.Fatal("the round's ETag did not change with its results")
	}
	if cc := done.Header.Get("Cache-Control"); !strings.Contains(cc, "s-maxage=") {
		t.Fatalf("complete round: Cache-Control %q", cc)
	}
}

// The players' table and the crosstable page with ?offset= and ?limit=:
// following next from the first page reads every row once, in the order of
// the whole table, from the event or from the view alike.
func TestViews_PagedTables(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Open","system":"swiss","rounds":3}`, 25)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	f.finishRound(t, s, r1, nil)
	for _, table := range []string{"standings", "crosstable"} {
		base := "/tournaments/" + f.ev.ID + "/" + table
		whole := getTable(t, s, base)
		if whole.Total != 25 || len(whole.Rows) != 25 || whole.Next != nil || whole.Offset != 0 {
			t.Fatalf("%s unpaged: total %d, %d rows, next %v", table, whole.Total, len(whole.Rows), whole.Next)
		}
		for pass := range 2 { // the first reads build each page's view, the second are served by it
			var ids []string
			path := base + "?limit=10"
			pages := 0
			for path != "" {
				p := getTable(t, s, path)
				if p.Total != 25 || p.Offset != len(ids) || len(p.Rows) > 10 {
					t.Fatalf("%s pass %d page %d: total %d offset %d rows %d", table, pass, pages, p.Total, p.Offset, len(p.Rows))
				}
				for _, r := range p.Rows {
					ids = append(ids, r.PlayerID)
				}
				path = ""
				if p.Next != nil {
					path = *p.Next
				}
				pages++
			}
			want := make([]string, len(whole.Rows))
			for i, r := range whole.Rows {
				want[i] = r.PlayerID
			}
			if pages != 3 || !slices.Equal(ids, want) {
				t.Fatalf("%s pass %d: %d pages, rows %v, want %v", table, pass, pages, ids, want)
			}
		}
		if p := getTable(t, s, base+"?offset=30"); len(p.Rows) != 0 || p.Total != 25 || p.Next != nil {
			t.Fatalf("%s past the end: %+v", table, p)
		}
		csv := s.Get(base+"?format=csv&offset=20&limit=3").Want(t, http.StatusOK)
		if lines := strings.Count(string(csv.Body), "\n"); lines != 4 {
			t.Fatalf("%s CSV page: %d lines\n%s", table, lines, csv.Body)
		}
		if lines := strings.Count(string(s.Get(base+"?format=csv").Want(t, http.StatusOK).Body), "\n"); lines != 26 {
			t.Fatalf("%s CSV: %d lines, want a header and every row", table, lines)
		}
		for _, bad := range []string{"limit=0", "limit=1001", "limit=x", "offset=-1"} {
			if r := s.Do(apitest.Req{Method: "GET", Path: base + "?" + bad, Invalid: true}); r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_query" {
				t.Errorf("%s?%s: %d %s", table, bad, r.Status, r.Body)
			}
		}
	}
}

// viewPlayers is the field of the read-cost test: XQTOUR_VIEW_PLAYERS
// overrides it (10000 measures the 10,000-player event).
func viewPlayers(t *testing.T) int {
	if s := os.Getenv("XQTOUR_VIEW_PLAYERS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 4 {
			t.Fatalf("XQTOUR_VIEW_PLAYERS=%q", s)
		}
		return n
	}
	return 1200
}

// A public read of the standings, the crosstable or a round costs what it
// returns: once its view is built, the read units do not grow with the
// rounds played (they did: the whole event partition each time), and stay
// within 100 per request (the goal at 10,000 players).
func TestViews_ReadCostBoundedAsRoundsGrow(t *testing.T) {
	if testing.Short() {
		t.Skip("pairs six rounds of a large field")
	}
	n := viewPlayers(t)
	rounds := 6
	if s := os.Getenv("XQTOUR_VIEW_ROUNDS"); s != "" {
		if rounds, _ = strconv.Atoi(s); rounds < 1 || rounds > 11 {
			t.Fatalf("XQTOUR_VIEW_ROUNDS=%q: want 1 to 11", s)
		}
	}
	s, meter := apitest.NewMetered(t)
	ev := newEvent(t, s, `{"name":"Mass Open","system":"swiss","rounds":11}`)
	var tour tournament.Tournament
	meta, err := s.Store.Get(t.Context(), "T#"+ev.ID, "META")
	if err != nil || json.Unmarshal(meta.Doc, &tour) != nil {
		t.Fatal(err)
	}
	recs := []*store.Record{}
	for i := range n {
		p, err := tour.Register(tournament.Player{ID: fmt.Sprintf("p%05d", i), Name: fmt.Sprintf("Player %d", i), Rating: 2600 - i%500}, 0)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := json.Marshal(p)
		recs = append(recs, &store.Record{PK: "T#" + ev.ID, SK: "P#" + p.ID, Kind: "player", Version: 1, Doc: doc})
	}
	meta.Doc, _ = json.Marshal(&tour)
	if err := s.Store.Import(t.Context(), append(recs, meta)); err != nil {
		t.Fatal(err)
	}
	tid := ev.ID
	type cost struct {
		cold, warm, built float64
		bytes             int
	}
	measure := func(path string) cost {
		meter.Reset()
		s.Get(path).Want(t, http.StatusOK)
		cold, built := meter.Units()
		meter.Reset()
		body := s.Get(path).Want(t, http.StatusOK).Body
		warm, _ := meter.Units()
		if len(body) > 6<<20 {
			t.Errorf("%s: %d bytes, over Lambda's 6 MB", path, len(body))
		}
		return cost{cold, warm, built, len(body)}
	}
	var warm [][3]cost
	for k := 1; k <= rounds; k++ {
		var r roundJSON
		s.Post("/tournaments/"+tid+"/rounds", ev.Token, map[string]any{"round": k}).Want(t, http.StatusCreated).Decode(t, &r)
		roundPath := fmt.Sprintf("/tournaments/%s/rounds/%d", tid, k)
		s.Get(roundPath).Want(t, http.StatusOK) // the round as published: its view, before any result
		var batch []*store.Record
		for _, p := range r.Pairings {
			res := result.RedWins
			if p.Table%3 == 0 {
				res = result.Draw
			}
			doc, _ := json.Marshal(tournament.Result{Round: k, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: res, Reason: "arbiter"})
			batch = append(batch, &store.Record{PK: "T#" + tid, SK: fmt.Sprintf("X#%04d#%04d", k, p.Table), Kind: "result", Doc: doc})
			if len(batch) == 100 {
				if err := s.Store.Transact(t.Context(), batch); err != nil {
					t.Fatal(err)
				}
				batch = nil
			}
		}
		if len(batch) > 0 {
			if err := s.Store.Transact(t.Context(), batch); err != nil {
				t.Fatal(err)
			}
		}
		// The round read after its results: only results changed since its
		// view was built, so the view is patched from the round's results
		// (one key range) instead of rebuilt from the whole event.
		meter.Reset()
		s.Get(roundPath).Want(t, http.StatusOK)
		patched, patchedWrites := meter.Units()
		st := measure("/tournaments/" + tid + "/standings")
		ct := measure("/tournaments/" + tid + "/crosstable")
		rd := measure(roundPath)
		t.Logf("%d players, round %d: read units cold/warm, write units to build, response bytes: standings %.0f/%.0f %.0f %d; crosstable %.0f/%.0f %.0f %d; round %.0f/%.0f %.0f %d",
			n, k, st.cold, st.warm, st.built, st.bytes, ct.cold, ct.warm, ct.built, ct.bytes, rd.cold, rd.warm, rd.built, rd.bytes)
		t.Logf("%d players, round %d: the round read after its results, patched: %.0f read units, %.0f write units", n, k, patched, patchedWrites)
		if k > 1 && patched*3 > st.cold {
			t.Errorf("round %d: patching the round's view cost %.0f read units, not far below reading the event (%.0f)", k, patched, st.cold)
		}
		warm = append(warm, [3]cost{st, ct, rd})
		if k == rounds && st.cold <= st.warm {
			t.Errorf("round %d: a cold read (%.0f RU) should cost the event's read, more than a warm one (%.0f)", k, st.cold, st.warm)
		}
	}
	for k, w := range warm {
		for i, what := range []string{"standings", "crosstable", "round"} {
			if w[i].warm > 100 {
				t.Errorf("round %d: a %s read costs %.0f read units, over 100", k+1, what, w[i].warm)
			}
			// What a read costs follows what it returns (a crosstable
			// grows a cell a round; standings and a round do not), not
			// the event's history: at most a unit per 4 KB of the
			// response, plus the event item, stamp and view head.
			if limit := float64(w[i].bytes/4096 + 4); w[i].warm > limit {
				t.Errorf("round %d: a %s read of %d bytes costs %.0f read units, over %.0f", k+1, what, w[i].bytes, w[i].warm, limit)
			}
			if k > 0 && i != 1 && w[i].warm > warm[0][i].warm+4 {
				t.Errorf("round %d: a %s read costs %.0f read units, after round 1 %.0f: it grows with the event's history", k+1, what, w[i].warm, warm[0][i].warm)
			}
		}
	}
}

// withoutViews drops the items of the views' partitions (V#<tid>): a
// public read may store its view, which is derived from the event, not
// part of its state.
func withoutViews(recs []*store.Record) []*store.Record {
	return slices.DeleteFunc(recs, func(r *store.Record) bool { return strings.HasPrefix(r.PK, "V#") })
}

// The round list and the event's finished status are views too: a round
// whose start time passes reads as started without any write, and the
// event reads finished as soon as the last result is in.
func TestViews_RoundListAndFinishedFollowChanges(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"One round","system":"swiss","rounds":1}`, 4)
	starts := s.Clock.Now().Add(time.Hour).Format(time.RFC3339)
	r1 := f.pair(t, s, map[string]any{"startsAt": starts}, http.StatusCreated)
	list := func() map[string]any {
		var out struct {
			Rounds []map[string]any `json:"rounds"`
		}
		s.Get("/tournaments/"+f.ev.ID+"/rounds").Want(t, http.StatusOK).Decode(t, &out)
		return out.Rounds[0]
	}
	status := func() string {
		return s.Get("/tournaments/"+f.ev.ID).Want(t, http.StatusOK).JSON()["status"].(string)
	}
	for range 2 {
		if r := list(); r["status"] != "paired" {
			t.Fatalf("before its start: %v", r)
		}
		if st := status(); st != "running" {
			t.Fatalf("event status %s while round 1 is played", st)
		}
	}
	s.Clock.Advance(2 * time.Hour)
	if r := list(); r["status"] != "started" {
		t.Fatalf("after its start time: %v", r)
	}
	f.finishRound(t, s, r1, nil)
	for range 2 {
		if r := list(); r["status"] != "finished" || r["finishedGames"] != 2.0 {
			t.Fatalf("after its results: %v", r)
		}
		if st := status(); st != "finished" {
			t.Fatalf("event status %s after the last result", st)
		}
	}
}

// An event's game list pages like the tables: JSON with total and next, a
// PGN file with a Link header naming the next page.
func TestViews_PagedGameList(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Open","system":"swiss","rounds":3}`, 24)
	f.pair(t, s, nil, http.StatusCreated)
	base := "/tournaments/" + f.ev.ID + "/games"
	var all, page struct {
		Games []struct {
			GameID string `json:"gameId"`
		} `json:"games"`
		Total int     `json:"total"`
		Next  *string `json:"next"`
	}
	s.Get(base).Want(t, http.StatusOK).Decode(t, &all)
	if len(all.Games) != 12 || all.Total != 12 || all.Next != nil {
		t.Fatalf("whole list: %d games, total %d, next %v", len(all.Games), all.Total, all.Next)
	}
	s.Get(base+"?limit=5&offset=5").Want(t, http.StatusOK).Decode(t, &page)
	if len(page.Games) != 5 || page.Games[0].GameID != all.Games[5].GameID || page.Next == nil || !strings.Contains(*page.Next, "offset=10") {
		t.Fatalf("page: %+v", page)
	}
	pgn := s.Get(base+"?format=pgn&limit=5").Want(t, http.StatusOK)
	if games := strings.Count(string(pgn.Body), "[Event "); games != 5 {
		t.Fatalf("PGN page of %d games", games)
	}
	if link := pgn.Header.Get("Link"); !strings.Contains(link, "offset=5") || !strings.HasSuffix(link, `rel="next"`) {
		t.Fatalf("PGN page Link %q", link)
	}
	if last := s.Get(base+"?format=pgn&offset=10&limit=5").Want(t, http.StatusOK); last.Header.Get("Link") != "" || strings.Count(string(last.Body), "[Event ") != 2 {
		t.Fatalf("last PGN page: Link %q, %s", last.Header.Get("Link"), last.Body)
	}
}
