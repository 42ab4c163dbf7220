// Command loadlocal measures the local stack (`make run`) the way a club uses
// it: it builds infra/local, starts it as a child process on a fresh data
// directory and drives it over HTTP with concurrent clients.
//
//	go run ./infra/loadlocal crash [-trials 5] [-clients 8]
//	go run ./infra/loadlocal speed [-fill 200000] [-runs 3] [-clients 8] [-players 1000]
//
// crash: clients register players and record every 201; after a random
// 1–3 s the server is killed with SIGKILL, restarted on the same directory,
// and every acknowledged player must be there. speed: results recorded per
// second with -clients arbiters in a -players event, single-write latency
// and restart time, first on an almost empty table, then with -fill items
// of other events in it. Figures are medians over -runs.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/xqtour/xqtour/shared/store"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: loadlocal crash|speed [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "crash":
		fs := flag.NewFlagSet("crash", flag.ExitOnError)
		trials := fs.Int("trials", 5, "kill -9 trials")
		clients := fs.Int("clients", 8, "concurrent writers")
		_ = fs.Parse(os.Args[2:])
		err = crash(*trials, *clients)
	case "speed":
		fs := flag.NewFlagSet("speed", flag.ExitOnError)
		fill := fs.Int("fill", 200_000, "items of other events in the large table")
		runs := fs.Int("runs", 3, "runs per figure (the median is reported)")
		clients := fs.Int("clients", 8, "concurrent arbiters")
		players := fs.Int("players", 1000, "players in the event")
		_ = fs.Parse(os.Args[2:])
		err = speed(*fill, *runs, *clients, *players)
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadlocal:", err)
		os.Exit(1)
	}
}

// stack is the local server running as a child process.
type stack struct {
	cmd       *exec.Cmd
	base, ddb string
}

func build(tmp string) (string, error) {
	bin := filepath.Join(tmp, "local")
	out, err := exec.Command("go", "build", "-o", bin, "./infra/local").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("build: %v\n%s", err, out)
	}
	return bin, nil
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start runs the server on dir and returns once it answers, with the time that took.
func start(bin, dir string) (*stack, time.Duration, error) {
	s := &stack{base: "http://" + freeAddr(), ddb: freeAddr()}
	s.cmd = exec.Command(bin)
	s.cmd.Env = append(os.Environ(), "ADDR="+strings.TrimPrefix(s.base, "http://"), "DATA_DIR="+dir, "DYNAMODB_ADDR="+s.ddb, "DYNAMODB_ENDPOINT=")
	s.cmd.Stderr = io.Discard
	began := time.Now()
	if err := s.cmd.Start(); err != nil {
		return nil, 0, err
	}
	for {
		if res, err := http.Get(s.base + "/openapi.json"); err == nil {
			res.Body.Close()
			return s, time.Since(began), nil
		}
		if time.Since(began) > 60*time.Second {
			s.kill()
			return nil, 0, errors.New("the server did not start within 60 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *stack) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	_ = s.cmd.Wait()
}

// stop is a graceful stop (SIGTERM), returning how long it took.
func (s *stack) stop() time.Duration {
	began := time.Now()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	_ = s.cmd.Wait()
	return time.Since(began)
}

var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 60 * time.Second}

// call sends a request and decodes a JSON answer into out (when not nil).
func call(method, url, token, body string, out any) (int, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			return res.StatusCode, err
		}
	}
	return res.StatusCode, nil
}

type created struct {
	ID    string `json:"id"`
	Token string `json:"token"`
}

func newEvent(base, name string) (created, error) {
	var c created
	st, err := call("POST", base+"/tournaments", "", fmt.Sprintf(`{"name":%q,"system":"swiss","rounds":7}`, name), &c)
	if err == nil && st != http.StatusCreated {
		err = fmt.Errorf("create event: %d", st)
	}
	return c, err
}

func register(base string, ev created, name string) (string, time.Duration, error) {
	var p created
	began := time.Now()
	st, err := call("POST", base+"/tournaments/"+ev.ID+"/players", ev.Token, fmt.Sprintf(`{"name":%q,"rating":%d}`, name, 1200+rand.IntN(1000)), &p)
	took := time.Since(began)
	if err == nil && st != http.StatusCreated {
		err = fmt.Errorf("register: %d", st)
	}
	return p.ID, took, err
}

// crash runs the kill -9 trials.
func crash(trials, clients int) error {
	tmp, err := os.MkdirTemp("", "loadlocal-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := build(tmp)
	if err != nil {
		return err
	}
	fmt.Printf("kill -9 under load: %d clients registering players, SIGKILL after 1-3 s, restart, check every 201\n", clients)
	fmt.Printf("%-6s %10s %10s %8s %12s\n", "trial", "acked", "present", "lost", "restart ms")
	totalLost := 0
	for trial := 1; trial <= trials; trial++ {
		dir := filepath.Join(tmp, fmt.Sprint("data", trial))
		s, _, err := start(bin, dir)
		if err != nil {
			return err
		}
		events := make([]created, 2)
		for i := range events {
			if events[i], err = newEvent(s.base, fmt.Sprint("Crash ", trial, i)); err != nil {
				s.kill()
				return err
			}
		}
		var mu sync.Mutex
		acked := map[string]string{} // player → event
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ev := events[c%len(events)]
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					pid, _, err := register(s.base, ev, fmt.Sprintf("c%d-%d", c, n))
					if err != nil {
						continue // refused, or cut off by the kill: not acknowledged
					}
					mu.Lock()
					acked[pid] = ev.ID
					mu.Unlock()
				}
			}()
		}
		time.Sleep(time.Second + rand.N(2*time.Second))
		s.kill() // while the clients are still writing
		close(stop)
		wg.Wait()
		mu.Lock()
		want := maps(acked)
		mu.Unlock()

		s, ready, err := start(bin, dir)
		if err != nil {
			return err
		}
		present := 0
		lost := 0
		for _, ev := range events {
			var players []struct {
				ID string `json:"id"`
			}
			var list struct {
				Players json.RawMessage `json:"players"`
			}
			if _, err := call("GET", s.base+"/tournaments/"+ev.ID+"/players", "", "", &list); err != nil {
				s.kill()
				return err
			}
			if err := json.Unmarshal(list.Players, &players); err != nil {
				s.kill()
				return err
			}
			have := map[string]bool{}
			for _, p := range players {
				have[p.ID] = true
			}
			present += len(players)
			for _, pid := range want[ev.ID] {
				if !have[pid] {
					lost++
				}
			}
		}
		s.stop()
		totalLost += lost
		fmt.Printf("%-6d %10d %10d %8d %12d\n", trial, len(acked), present, lost, ready.Milliseconds())
	}
	if totalLost > 0 {
		return fmt.Errorf("%d acknowledged writes lost", totalLost)
	}
	fmt.Println("0 acknowledged writes lost")
	return nil
}

func maps(acked map[string]string) map[string][]string {
	out := map[string][]string{}
	for pid, tid := range acked {
		out[tid] = append(out[tid], pid)
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// speed measures two stacks side by side, one on an almost empty table and
// one with fill items of other events, alternating between them so that the
// load of a shared machine falls on both alike.
func speed(fill, runs, clients, players int) error {
	tmp, err := os.MkdirTemp("", "loadlocal-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := build(tmp)
	if err != nil {
		return err
	}
	ctx := context.Background()
	type side struct {
		dir, label                  string
		s                           *stack
		st                          *store.Store
		rates, regs, puts, restarts []float64
		crashes                     []float64
	}
	sides := []*side{{dir: filepath.Join(tmp, "small"), label: "small"}, {dir: filepath.Join(tmp, "large"), label: "large"}}
	connect := func(sd *side) error {
		var err error
		sd.st, err = store.Open(ctx, store.Config{Table: "xqtour", Region: "us-east-1", Endpoint: "http://" + sd.s.ddb})
		return err
	}
	for _, sd := range sides {
		if sd.s, _, err = start(bin, sd.dir); err != nil {
			return err
		}
		defer func() { sd.s.kill() }()
		if err := connect(sd); err != nil {
			return err
		}
	}
	large := sides[1]
	if err := fillTable(ctx, large.st, fill); err != nil {
		return err
	}
	// A season's data directory as the club finds it next time: compacted
	// into the snapshot at the last stop, loaded at start.
	large.s.stop()
	if large.s, _, err = start(bin, large.dir); err != nil {
		return err
	}
	if err := connect(large); err != nil {
		return err
	}
	for run := range runs {
		for _, sd := range sides {
			rate, reg, err := eventRun(sd.s.base, run, clients, players)
			if err != nil {
				return err
			}
			put, err := putLatency(ctx, sd.st, run)
			if err != nil {
				return err
			}
			sd.rates, sd.regs, sd.puts = append(sd.rates, rate), append(sd.regs, reg), append(sd.puts, put)
		}
	}
	items := make([]int64, len(sides))
	for i, sd := range sides {
		if items[i], err = sd.st.ItemCount(ctx); err != nil {
			return err
		}
	}
	for range runs {
		for _, sd := range sides {
			sd.s.stop()
			var ready time.Duration
			if sd.s, ready, err = start(bin, sd.dir); err != nil {
				return err
			}
			sd.restarts = append(sd.restarts, float64(ready.Milliseconds()))
		}
	}
	for run := range runs { // the log holds a few hundred writes, the snapshot the rest
		for _, sd := range sides {
			ev, err := newEvent(sd.s.base, fmt.Sprint("Crash ", run))
			if err != nil {
				return err
			}
			for i := range 200 {
				if _, _, err := register(sd.s.base, ev, fmt.Sprint("k", i)); err != nil {
					return err
				}
			}
			sd.s.kill()
			var ready time.Duration
			if sd.s, ready, err = start(bin, sd.dir); err != nil {
				return err
			}
			sd.crashes = append(sd.crashes, float64(ready.Milliseconds()))
		}
	}
	fmt.Printf("%d clients, %d-player events (%d results each), medians of %d runs\n", clients, players, players, runs)
	fmt.Printf("%-8s %10s %11s %13s %8s %12s %16s\n", "table", "items", "results/s", "register ms", "put ms", "restart ms", "kill-9 restart ms")
	for i, sd := range sides {
		fmt.Printf("%-8s %10d %11.1f %13.2f %8.2f %12.0f %16.0f\n", sd.label, items[i], median(sd.rates), median(sd.regs), median(sd.puts), median(sd.restarts), median(sd.crashes))
	}
	return nil
}

// fillTable writes n items of other events: 1,000-item partitions of
// player-sized documents, as a season of past events leaves behind.
func fillTable(ctx context.Context, st *store.Store, n int) error {
	const perEvent = 1000
	doc := bytes.Repeat([]byte("x"), 300)
	var wg sync.WaitGroup
	errc := make(chan error, 8)
	next := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for start := range next {
				recs := make([]*store.Record, 0, 500)
				for i := start; i < min(start+500, n); i++ {
					recs = append(recs, &store.Record{PK: store.TournamentPK(fmt.Sprintf("fill%05d", i/perEvent)), SK: store.PlayerSK(fmt.Sprintf("%06d", i)), Kind: store.KindPlayer, Version: 1, Doc: doc})
				}
				if err := st.Import(ctx, recs); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	for i := 0; i < n; i += 500 {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errc)
	return <-errc
}

// eventRun registers players in a new event (clients at once), pairs two
// rounds and has clients arbiters record every result; it returns results
// per second, and the median latency of registering one player at a time
// into another event.
func eventRun(base string, run, clients, players int) (float64, float64, error) {
	ev, err := newEvent(base, fmt.Sprint("Speed ", run))
	if err != nil {
		return 0, 0, err
	}
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	next := make(chan int)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var err error
				for attempt := 0; attempt < 50; attempt++ { // concurrent registrations race for the event: 409, retry
					if _, _, err = register(base, ev, fmt.Sprint("Player ", i)); err == nil || !strings.HasSuffix(err.Error(), "409") {
						break
					}
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range players {
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return 0, 0, firstErr
	}
	// One organiser registering a field one by one: the latency of a single write.
	solo, err := newEvent(base, fmt.Sprint("Solo ", run))
	if err != nil {
		return 0, 0, err
	}
	var lat []float64
	for i := range 200 {
		_, took, err := register(base, solo, fmt.Sprint("Solo ", i))
		if err != nil {
			return 0, 0, err
		}
		lat = append(lat, float64(took.Microseconds())/1000)
	}
	var arb created
	if st, err := call("POST", base+"/tournaments/"+ev.ID+"/officials", ev.Token, `{"role":"arbiter","name":"Arbiter"}`, &arb); err != nil || st != http.StatusCreated {
		return 0, 0, fmt.Errorf("arbiter: %d %v", st, err)
	}
	var n int
	var recording time.Duration
	for range 2 { // two rounds: as many results as players
		took, games, err := recordRound(base, ev, arb, clients)
		if err != nil {
			return 0, 0, err
		}
		n += games
		recording += took
	}
	return float64(n) / recording.Seconds(), median(lat), nil
}

// recordRound pairs the next round and has clients arbiters record every
// result at once; it returns the time the results took and how many.
func recordRound(base string, ev, arb created, clients int) (time.Duration, int, error) {
	var round struct {
		Pairings []struct {
			GameID string `json:"gameId"`
		} `json:"pairings"`
	}
	if st, err := call("POST", base+"/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`, &round); err != nil || st != http.StatusCreated {
		return 0, 0, fmt.Errorf("pair: %d %v", st, err)
	}
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	games := make(chan string)
	began := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for gid := range games {
				st, err := call("POST", base+"/games/"+gid+"/result", arb.Token, `{"result":"1-0"}`, nil)
				if err == nil && st != http.StatusOK {
					err = fmt.Errorf("result: %d", st)
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	n := 0
	for _, p := range round.Pairings {
		if p.GameID != "" {
			games <- p.GameID
			n++
		}
	}
	close(games)
	wg.Wait()
	return time.Since(began), n, firstErr
}

// putLatency is the median time of one conditional PutItem through the SDK.
func putLatency(ctx context.Context, st *store.Store, run int) (float64, error) {
	var lat []float64
	for i := range 200 {
		r := &store.Record{PK: store.GamePK(fmt.Sprintf("lat%d-%d", run, i)), SK: store.GameSK, Kind: store.KindGame, Doc: bytes.Repeat([]byte("g"), 600)}
		began := time.Now()
		if err := st.Put(ctx, r); err != nil {
			return 0, err
		}
		lat = append(lat, float64(time.Since(began).Microseconds())/1000)
	}
	return median(lat), nil
}
