package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"time"
)

// builder plays the organiser, the arbiters and the public of one event.
type builder struct {
	lam     *lambda
	rng     *rand.Rand
	workers int
	tid     string
	token   string
	rating  map[string]int
	profile string // the file of the last pairing's CPU profile
}

type pairing struct {
	Table  int    `json:"table"`
	Red    string `json:"red"`
	Black  string `json:"black"`
	GameID string `json:"gameId"`
}

func (b *builder) build(players, rounds int) error {
	ctx := context.Background()
	var ev struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	body := fmt.Sprintf(`{"name":"Big Open","system":"swiss","rounds":%d,"timeControl":"untimed"}`, rounds)
	if err := b.lam.call(ctx, request{route: "/tournaments", method: "POST", path: "/tournaments", body: body}, true, http.StatusCreated, &ev); err != nil {
		return err
	}
	b.tid, b.token, b.rating = ev.ID, ev.Token, map[string]int{}
	began := time.Now()
	for i := range players {
		var p struct {
			ID string `json:"id"`
		}
		rating := 1200 + b.rng.IntN(1500)
		body := fmt.Sprintf(`{"name":"Player %d","rating":%d}`, i+1, rating)
		if err := b.lam.call(ctx, b.organiser("POST", "/tournaments/{tid}/players", "/players", body), true, http.StatusCreated, &p); err != nil {
			return err
		}
		b.rating[p.ID] = rating
	}
	fmt.Printf("registered %d players in %s\n", players, time.Since(began).Round(time.Second))
	for n := 1; n <= rounds; n++ {
		began := time.Now()
		body := fmt.Sprintf(`{"round":%d,"startsAt":%q}`, n, time.Now().UTC().Format(time.RFC3339))
		stop, err := b.startProfile(n == rounds)
		if err != nil {
			return err
		}
		cpu0, store0 := cpuTime(), processCPU(b.lam.storePID)
		r, err := b.pairRound(ctx, n, body) // 201, or 202 and its job polled (pairjob.go)
		cpu, storeCPU := cpuTime()-cpu0, processCPU(b.lam.storePID)-store0
		stop()
		if err != nil {
			return err
		}
		paired := time.Since(began)
		if r.Next != nil { // a round of more tables than a page: the pairing answered its first
			pages, err := follow(ctx, b, "/tournaments/{tid}/rounds/{n}", " pages after the pairing's", "pairings", *r.Next, &r.Pairings)
			if err != nil {
				return err
			}
			fmt.Printf("round %d: the pairing answered %d of %d tables; %d more pages read\n", n, len(r.Pairings)-pages.tables, r.total(), pages.pages)
		}
		if len(r.Pairings) != r.total() { // every table is played, or the next round is refused
			return fmt.Errorf("round %d: read %d of its %d tables", n, len(r.Pairings), r.total())
		}
		if err := b.results(ctx, r.Pairings); err != nil {
			return err
		}
		b.reads(ctx, n, r.Pairings)
		fmt.Printf("round %d: %d tables, paired in %s (handler CPU %s, store CPU %s), played and read in %s\n", n, len(r.Pairings),
			paired.Round(time.Millisecond), cpu.Round(time.Millisecond), storeCPU.Round(time.Millisecond), time.Since(began).Round(time.Second))
	}
	return b.export(ctx)
}

// export reads the event's export to its last page, as an organiser
// moving the event would, and checks what the pages make: as many items as
// the export says it has, whose digest is the snapshot it names (in the
// first page's header, version 1, or the last page's, version 2; an
// export of one page names none).
func (b *builder) export(ctx context.Context) error {
	q := b.organiser("GET", "/tournaments/{tid}/export", "/export", "")
	digest, items, pages := sha256.New(), 0, 0
	total, snapshot := -1, ""
	began := time.Now()
	for {
		res, err := b.lam.invoke(ctx, q, true)
		if err != nil {
			return err
		}
		if res.status != http.StatusOK {
			return fmt.Errorf("GET %s: %d: %s", q.path, res.status, clip(string(res.body)))
		}
		head, body, _ := bytes.Cut(res.body, []byte("\n"))
		var h struct {
			Items, Total int
			PartItems    int `json:"partItems"`
			Snapshot     string
			Next         string
		}
		if err := json.Unmarshal(head, &h); err != nil {
			return fmt.Errorf("export page %d: header: %w", pages+1, err)
		}
		for line := range bytes.Lines(body) {
			digest.Write(line)
			items++
		}
		pages++
		if h.Snapshot != "" {
			snapshot = h.Snapshot
		}
		switch {
		case h.Total > 0:
			total = h.Total
		case pages == 1 && h.Items > 0:
			total = h.Items
		}
		if h.Next == "" {
			break
		}
		path, query, _ := strings.Cut(h.Next, "?")
		q = request{route: q.route, label: " pages after the first", method: "GET", path: path, query: query, token: b.token}
	}
	// An export of one page is the unpaged format, which names no snapshot.
	if got := hex.EncodeToString(digest.Sum(nil)); items != total || (snapshot != "" || pages > 1) && got != snapshot {
		return fmt.Errorf("export: %d pages made %d items of digest %s; the export says %d items of %s", pages, items, got, total, snapshot)
	}
	checked := "digest checked"
	if snapshot == "" {
		checked = "items counted"
	}
	fmt.Printf("export: %d pages, %d items, read in %s; %s\n", pages, items, time.Since(began).Round(time.Millisecond), checked)
	return nil
}

// organiser is a request on the event's path under the organiser's token.
func (b *builder) organiser(method, route, tail, body string) request {
	return request{route: route, method: method, path: "/tournaments/" + b.tid + tail, token: b.token, body: body}
}

// results records every table's result as an arbiter's over-the-board
// result, b.workers at a time: the higher rating wins more often than not.
func (b *builder) results(ctx context.Context, ps []pairing) error {
	bodies := make([]string, len(ps))
	for i, p := range ps {
		res, x := "1/2-1/2", b.rng.Float64()
		favourite, other := "1-0", "0-1"
		if b.rating[p.Black] > b.rating[p.Red] {
			favourite, other = other, favourite
		}
		switch {
		case x < 0.55:
			res = favourite
		case x < 0.75:
			res = other
		}
		bodies[i] = fmt.Sprintf(`{"result":%q}`, res)
	}
	// The requests run b.workers at a time, so the store's refusals are
	// counted over the whole round's results and given to the route.
	t0 := b.lam.store.throttled()
	defer func() {
		t1 := b.lam.store.throttled()
		b.lam.stats.throttled("POST /games/{gid}/result", t1.Reads+t1.Writes-t0.Reads-t0.Writes)
	}()
	next := make(chan int)
	errs := make(chan error, b.workers)
	var wg sync.WaitGroup
	for range b.workers {
		wg.Go(func() {
			for i := range next {
				q := request{route: "/games/{gid}/result", method: "POST", path: "/games/" + ps[i].GameID + "/result", token: b.token, body: bodies[i]}
				if err := b.lam.call(ctx, q, b.workers == 1, http.StatusOK, nil); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	var err error
feed:
	for i := range ps {
		select {
		case next <- i:
		case err = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err != nil {
		return err
	}
	select {
	case err = <-errs:
	default:
	}
	return err
}

// reads makes the public's reads once round n is played, one at a time,
// twice: the first read after the round's results, and the same read again
// (rows "… again"), which a view kept since the first serves.
func (b *builder) reads(ctx context.Context, n int, ps []pairing) {
	for _, again := range []string{"", " again"} {
		public := func(route, path string) {
			q := request{route: route, label: again, method: "GET", path: path}
			if _, err := b.lam.invoke(ctx, q, true); err != nil {
				fmt.Println("  ", err)
			}
		}
		event := "/tournaments/" + b.tid
		// A paged read's first page is its route's row; the pages after it
		// are one row more (" next pages"), each page a request of its own.
		paged := func(route, path, list string) {
			q := request{route: route, label: again, method: "GET", path: path}
			res, err := b.lam.invoke(ctx, q, true)
			if err != nil {
				fmt.Println("  ", err)
				return
			}
			var first map[string]json.RawMessage
			if json.Unmarshal(res.body, &first) != nil || first["next"] == nil {
				return
			}
			var next string
			_ = json.Unmarshal(first["next"], &next)
			var rows []json.RawMessage
			pages, err := follow(ctx, b, route, again+" next pages", list, next, &rows)
			if err != nil {
				fmt.Println("  ", err)
			}
			fmt.Printf("  GET %s%s: %d pages (%d rows after the first page's)\n", route, again, 1+pages.pages, pages.tables)
		}
		public("/tournaments/{tid}", event)
		public("/tournaments/{tid}/rounds", event+"/rounds")
		paged("/tournaments/{tid}/rounds/{n}", fmt.Sprintf("%s/rounds/%d", event, n), "pairings")
		public("/tournaments/{tid}/standings", event+"/standings")
		public("/tournaments/{tid}/crosstable", event+"/crosstable")
		paged("/tournaments/{tid}/players", event+"/players", "players")
		public("/tournaments/{tid}/games", event+"/games")
		if len(ps) > 0 {
			public("/games/{gid}", "/games/"+ps[len(ps)-1].GameID)
		}
	}
}

// startProfile starts the CPU profile when on and a file is named, and
// returns what stops it.
func (b *builder) startProfile(on bool) (func(), error) {
	if !on || b.profile == "" {
		return func() {}, nil
	}
	f, err := os.Create(b.profile)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }, nil
}

// pairingsPage is a round's answer: its tables and, when the round is
// paged (more tables than a page holds), its total and the next page.
type pairingsPage struct {
	Pairings []pairing `json:"pairings"`
	Total    *int      `json:"total"`
	Next     *string   `json:"next"`
}

// total is the round's tables in all.
func (p pairingsPage) total() int {
	if p.Total != nil {
		return *p.Total
	}
	return len(p.Pairings)
}

// pageStats counts the pages a paged read followed and the rows they held.
type pageStats struct{ pages, tables int }

// follow reads a paged answer's pages from next on, each a request of its
// own reported under route and label (so the report checks every page
// against Lambda's 6 MB and API Gateway's 29 s), and appends each page's
// rows (its field list) to rows.
func follow[R any](ctx context.Context, b *builder, route, label, list, next string, rows *[]R) (pageStats, error) {
	var st pageStats
	for next != "" {
		path, query, _ := strings.Cut(next, "?")
		res, err := b.lam.invoke(ctx, request{route: route, label: label, method: "GET", path: path, query: query}, true)
		if err != nil {
			return st, err
		}
		if res.status != http.StatusOK {
			return st, fmt.Errorf("GET %s: %d: %s", next, res.status, clip(string(res.body)))
		}
		var page map[string]json.RawMessage
		if err := json.Unmarshal(res.body, &page); err != nil {
			return st, err
		}
		var got []R
		if err := json.Unmarshal(page[list], &got); err != nil {
			return st, err
		}
		*rows = append(*rows, got...)
		st.pages, st.tables = st.pages+1, st.tables+len(got)
		next = ""
		if page["next"] != nil {
			_ = json.Unmarshal(page["next"], &next)
		}
	}
	return st, nil
}
