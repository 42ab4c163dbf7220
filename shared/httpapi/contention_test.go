package httpapi_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// uuid4 is a random Idempotency-Key.
func uuid4() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// postRetrying is a client as the README tells clients to be: one
// Idempotency-Key per request, and a 429 or 503 retried with the same key
// after Retry-After (scaled down to at most 100 ms here, to keep the test
// short). It returns every status it got, the last one last.
func postRetrying(url, token string, body any) (statuses []int, last []byte, err error) {
	data, _ := json.Marshal(body)
	key := uuid4()
	for range 100 {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Idempotency-Key", key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return statuses, nil, err
		}
		last, _ = io.ReadAll(res.Body)
		res.Body.Close()
		statuses = append(statuses, res.StatusCode)
		if res.StatusCode != http.StatusTooManyRequests && res.StatusCode != http.StatusServiceUnavailable {
			return statuses, last, nil
		}
		wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
		time.Sleep(min(time.Duration(wait)*time.Second, 100*time.Millisecond))
	}
	return statuses, last, fmt.Errorf("still refused after 100 tries: %v", statuses)
}

// registerBurst registers n players concurrently, at most parallel at a
// time, and checks that each got 201 (after retries of 429/503 only), that
// none got a 409 or a 500, and that the event lists exactly n players,
// numbered 1..n, each registration once.
func registerBurst(t *testing.T, s *apitest.Server, n, parallel int) {
	t.Helper()
	ev := newEvent(t, s, `{"name":"Check-in","system":"swiss","rounds":5}`)
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ids := map[string]string{}
	retried := 0
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			name := fmt.Sprintf("Player %03d", i)
			statuses, body, err := postRetrying(s.URL+"/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name})
			mu.Lock()
			defer mu.Unlock()
			retried += len(statuses) - 1
			if err != nil || statuses[len(statuses)-1] != http.StatusCreated {
				t.Errorf("%s: statuses %v, %v: %s", name, statuses, err, body)
				return
			}
			var out struct{ ID string }
			_ = json.Unmarshal(body, &out)
			ids[out.ID] = name
		}()
	}
	wg.Wait()
	var list struct {
		Players []struct {
			ID     string
			Name   string
			Number int
		}
	}
	s.Get("/tournaments/"+ev.ID+"/players").Want(t, http.StatusOK).Decode(t, &list)
	if len(list.Players) != n || len(ids) != n {
		t.Fatalf("%d registrations acknowledged, %d players listed; want %d each", len(ids), len(list.Players), n)
	}
	for i, p := range list.Players {
		if ids[p.ID] != p.Name || p.Number != i+1 {
			t.Errorf("listed player %d: %+v (acknowledged as %q)", i, p, ids[p.ID])
		}
	}
	t.Logf("%d registrations, %d at a time: %d retried answers (429/503)", n, parallel, retried)
}

// A venue's check-in: 200 registrations for one event, 20 at a time and
// all at once, every one 201 and listed once. They all rewrite the event
// item; the per-event sequencer and the retry budget (retry.go) absorb the
// contention, which is the server's own and never a client's 409.
func TestRegistrationBurst_AllSucceed(t *testing.T) {
	for _, parallel := range []int{20, 200} {
		t.Run(fmt.Sprintf("%dAtATime", parallel), func(t *testing.T) {
			registerBurst(t, apitest.New(t), 200, parallel)
		})
	}
}

// The same burst while DynamoDB fails as it does now and then (conflicts,
// throttles, 500s, writes whose answer is lost): a client that retries 429
// and 503 with the same Idempotency-Key gets 201 for every registration,
// never a 409 or 500, and none is lost or made twice.
func TestRegistrationBurst_UnderFaults(t *testing.T) {
	s := apitest.New(t)
	s.DB.SetFaults(embedded.Faults{Conflict: 0.05, Throttle: 0.02, Internal: 0.03, Ambiguous: 0.05})
	registerBurst(t, s, 60, 60)
	if got := s.DB.Injected(); got.Conflict+got.Throttle+got.Internal+got.Ambiguous == 0 {
		t.Errorf("no fault injected: %+v", got)
	}
}

// A move DynamoDB applied but whose answer it lost, with the opponent's
// reply stored before the SDK's retry: the retry fails its condition, the
// store's read-back finds a later version than its own, and the game itself
// tells that the move is on the board: 200, not a 409 for a stale ply.
func TestMoveAnswerLost_OpponentRepliedMeanwhile(t *testing.T) {
	s := apitest.New(t)
	tb := &table{t: t, s: s, g: createGame(t, s, `{"timeControl":"rapid-5/30"}`)}
	tb.move("red", "h2e2", true)
	var puts atomic.Int32
	s.DB.Intercept(func(op string, _ []byte) embedded.Fault {
		if op != "PutItem" {
			return embedded.Serve
		}
		switch puts.Add(1) {
		case 1: // black's move: applied, its answer lost
			s.DB.SetFaults(embedded.Faults{Ambiguous: 1})
		case 2: // the SDK's retry of it: red replies first
			s.DB.SetFaults(embedded.Faults{})
			tb.s.Post("/games/"+tb.g.ID+"/moves", tb.g.RedToken, map[string]any{"move": "h0g2", "ply": 2, "press": true}).Want(t, http.StatusOK)
		default:
			s.DB.SetFaults(embedded.Faults{})
		}
		return embedded.Serve
	})
	r := s.Post("/games/"+tb.g.ID+"/moves", tb.g.BlackToken, map[string]any{"move": "h9g7", "ply": 1, "press": true}).Want(t, http.StatusOK)
	s.DB.Intercept(nil)
	if got := toStrings(r.JSON()["moves"]); strings.Join(got, " ") != "h2e2 h9g7 h0g2" {
		t.Fatalf("moves %v", got)
	}
	if n := s.DB.Injected().Ambiguous; n == 0 {
		t.Fatal("the move's answer was not lost")
	}
}
