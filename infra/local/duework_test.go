package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

// make run does the work due on its own ticker (DUE_EVERY): a team round
// paired with its deadline a moment ahead has its missing lineups drawn
// and its match set soon after the deadline, with nobody but a reader
// polling the round (which writes nothing). The ticker stops with the
// stack: the stop below returns only once it has.
func TestMakeRun_DueWorkTicker(t *testing.T) {
	t.Setenv("DUE_EVERY", "100ms")
	base, stop := start(t, t.TempDir())
	defer stop()
	var ev struct{ ID, Token string }
	if st := postJSON(t, base+"/tournaments", "", `{"name":"Ticker Teams","system":"roundRobin","teams":true,"boards":2,"teamFormat":"lineupPerMatch"}`, &ev); st != http.StatusCreated {
		t.Fatalf("create: %d", st)
	}
	for i := range 2 {
		body := fmt.Sprintf(`{"name":"Team %d","members":[{"name":"T%d A"},{"name":"T%d B"}]}`, i+1, i+1, i+1)
		if st := postJSON(t, base+"/tournaments/"+ev.ID+"/teams", ev.Token, body, nil); st != http.StatusCreated {
			t.Fatalf("team %d: %d", i+1, st)
		}
	}
	deadline := time.Now().Add(1500 * time.Millisecond)
	if st := postJSON(t, base+"/tournaments/"+ev.ID+"/rounds", ev.Token, `{"startsAt":"`+deadline.UTC().Format(time.RFC3339Nano)+`"}`, nil); st != http.StatusCreated {
		t.Fatalf("pair: %d", st)
	}
	type round struct {
		Pairings []struct{ GameID string }
		Matches  []struct{ Set bool }
	}
	read := func() round {
		res, err := http.Get(base + "/tournaments/" + ev.ID + "/rounds/1")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		var r round
		if err := json.Unmarshal(data, &r); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("round 1: %d %s", res.StatusCode, data)
		}
		return r
	}
	if r := read(); len(r.Matches) != 1 || r.Matches[0].Set {
		t.Fatalf("before the deadline: %+v", r)
	}
	for {
		r := read()
		if len(r.Matches) == 1 && r.Matches[0].Set && len(r.Pairings) == 2 {
			if time.Now().Before(deadline) {
				t.Fatalf("the lineups were drawn before the deadline: %+v", r)
			}
			break
		}
		if time.Now().After(deadline.Add(10 * time.Second)) {
			t.Fatalf("ten seconds past the deadline the match is not set: %+v", r)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A DUE_EVERY that is no positive duration stops the stack before it
// starts, saying what it wants.
func TestMakeRun_DueEveryRefused(t *testing.T) {
	for _, v := range []string{"soon", "0s", "-1s"} {
		t.Setenv("DUE_EVERY", v)
		err := run(context.Background(), slog.New(slog.NewJSONHandler(io.Discard, nil)))
		if err == nil || !strings.Contains(err.Error(), "DUE_EVERY") {
			t.Errorf("DUE_EVERY=%s: %v, want a refusal naming it", v, err)
		}
	}
}
