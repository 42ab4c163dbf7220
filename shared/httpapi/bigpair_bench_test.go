package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// bigHistory is a Swiss event's stored history built through the core: the
// players and the rounds played with their results, to be written under a
// fresh event id for each measured pairing.
type bigHistory struct {
	players []*tournament.Player
	rounds  []*tournament.Round
	results []tournament.Result
	tour    tournament.Tournament
}

// playBigSwiss pairs `played` rounds of an n-player Swiss with the core and
// decides every game by a fixed rule (the higher-rated player wins, every
// fifth table drawn), as the organiser's results would.
func playBigSwiss(tb testing.TB, n, played, total int) *bigHistory {
	tb.Helper()
	t, err := tournament.New("tplaceholder", tournament.Settings{Name: "Mass Open", System: tournament.Swiss, Rounds: total}, "", 0)
	if err != nil {
		tb.Fatal(err)
	}
	h := &bigHistory{}
	rating := map[string]int{}
	for i := range n {
		p, err := t.Register(tournament.Player{ID: fmt.Sprintf("p%05d", i+1), Name: fmt.Sprintf("Player %d", i+1), Rating: 2600 - i%1500}, 0)
		if err != nil {
			tb.Fatal(err)
		}
		h.players = append(h.players, &p)
		rating[p.ID] = p.Rating
	}
	for range played {
		r, err := tournament.PairNext(t, tournament.NewHistory(h.players, h.rounds, h.results), tournament.PairOptions{}, func(round, table, g int) string {
			return service.GameID(t.Key, t.ID, round, table, g)
		})
		if err != nil {
			tb.Fatal(err)
		}
		t.Round, t.Status = r.Number, tournament.Running
		h.rounds = append(h.rounds, r)
		for _, p := range r.Pairings {
			res := result.RedWins
			if rating[p.Black] > rating[p.Red] {
				res = result.BlackWins
			}
			if p.Table%5 == 0 {
				res = result.Draw
			}
			h.results = append(h.results, tournament.Result{Round: r.Number, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: res, Reason: "arbiter"})
		}
	}
	h.tour = *t
	return h
}

// store writes the history as event tid's items (its event item taken from
// the stored one, which holds the organiser's token hash), the way the
// handlers store them: rounds larger than an item across continuation items.
func (h *bigHistory) store(tb testing.TB, s *apitest.Server, tid string) {
	tb.Helper()
	ctx := tb.Context()
	meta, err := s.Store.Get(ctx, "T#"+tid, "META")
	if err != nil {
		tb.Fatal(err)
	}
	var t tournament.Tournament
	if err := json.Unmarshal(meta.Doc, &t); err != nil {
		tb.Fatal(err)
	}
	t.Round, t.Status, t.ExpiresAt, meta.Expires = h.tour.Round, h.tour.Status, 0, 0
	t.Players = h.tour.Players
	var recs []*store.Record
	for _, p := range h.players {
		doc, _ := json.Marshal(p)
		recs = append(recs, &store.Record{PK: "T#" + tid, SK: "P#" + p.ID, Kind: "player", Version: 1, Doc: doc})
	}
	for _, x := range h.results {
		x.GameID = service.GameID("bench", tid, x.Round, x.Table, 1)
		doc, _ := json.Marshal(x)
		recs = append(recs, &store.Record{PK: "T#" + tid, SK: fmt.Sprintf("X#%04d#%04d", x.Round, x.Table), Kind: "result", Version: 1, Doc: doc})
	}
	if err := s.Store.Import(ctx, recs); err != nil {
		tb.Fatal(err)
	}
	for _, r := range h.rounds {
		rr := *r
		rr.GamesReady = true
		rr.Pairings = slices.Clone(r.Pairings)
		for i := range rr.Pairings {
			rr.Pairings[i].GameID = service.GameID("bench", tid, r.Number, rr.Pairings[i].Table, 1)
		}
		doc, _ := json.Marshal(&rr)
		if err := s.Store.Transact(ctx, []*store.Record{{PK: "T#" + tid, SK: fmt.Sprintf("R#%04d", r.Number), Kind: "round", Doc: doc}}); err != nil {
			tb.Fatal(err)
		}
	}
	meta.Doc, _ = json.Marshal(&t)
	if err := s.Store.Put(ctx, meta); err != nil {
		tb.Fatal(err)
	}
}

// benchPlayers reads XQ_BENCH_PLAYERS (default def): the full 10,000 is the
// issue's figure, smaller fields make a quick run.
func benchPlayers(def int) int {
	if n, err := strconv.Atoi(os.Getenv("XQ_BENCH_PLAYERS")); err == nil && n > 1 {
		return n
	}
	return def
}

// BenchmarkPairRoundRequest is POST /tournaments/{tid}/rounds for round 11
// of a 10,000-player Swiss (ten rounds and 50,000 results stored), end to
// end over HTTP against the embedded DynamoDB-compatible store: the event
// read, the pairing, the round's storage and its 5,000 games. Each
// iteration pairs a fresh copy of the event (the copy is not timed).
func BenchmarkPairRoundRequest(b *testing.B) {
	n, played := benchPlayers(10_000), 10
	h := playBigSwiss(b, n, played, played+1)
	s := apitest.New(b)
	var round struct {
		Pairings []struct{ Table int }
	}
	b.StopTimer()
	for range b.N {
		var ev struct {
			ID    string `json:"id"`
			Token string `json:"token"`
		}
		s.Post("/tournaments", "", `{"name":"Mass Open","rounds":11}`).Want(b, http.StatusCreated).Decode(b, &ev)
		h.store(b, s, ev.ID)
		stop := profileTimed(b)
		b.StartTimer()
		s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, fmt.Sprintf(`{"round":%d}`, played+1)).Want(b, http.StatusCreated).Decode(b, &round)
		b.StopTimer()
		stop()
	}
	if len(round.Pairings) != n/2 {
		b.Fatalf("%d pairings, want %d", len(round.Pairings), n/2)
	}
}

// profileTimed writes a CPU profile of the timed part alone to the file
// XQ_BENCH_CPUPROFILE names (go test's -cpuprofile would include building
// the event): `XQ_BENCH_CPUPROFILE=pair.prof go test -bench PairRoundRequest`.
// The returned func stops it; the last iteration's profile is kept.
func profileTimed(tb testing.TB) func() {
	path := os.Getenv("XQ_BENCH_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		tb.Fatal(err)
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }
}
