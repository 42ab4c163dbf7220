package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// postJSON sends a JSON POST with the token and decodes the answer into out,
// returning the status.
func postJSON(t *testing.T, url, token, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("POST %s: %d %s", url, res.StatusCode, data)
		}
	}
	return res.StatusCode
}

// make run with PAIR_JOB_PLAYERS pairs a big event's round as a job in its
// own process: POST …/rounds answers 202, the job's status goes to done,
// the round reads as any round, and a follower of the event hears of the
// round on the live channel as for any pairing.
func TestMakeRun_PairJob(t *testing.T) {
	t.Setenv("PAIR_JOB_PLAYERS", "2")
	base, stop := start(t, t.TempDir())
	defer stop()
	var ev struct{ ID, Token string }
	if st := postJSON(t, base+"/tournaments", "", `{"name":"Job Open","system":"swiss","rounds":3}`, &ev); st != http.StatusCreated {
		t.Fatalf("create: %d", st)
	}
	for i := range 3 {
		if st := postJSON(t, base+"/tournaments/"+ev.ID+"/players", ev.Token, fmt.Sprintf(`{"name":"Player %d"}`, i+1), nil); st != http.StatusCreated {
			t.Fatalf("register: %d", st)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"subscribe","tournament":"`+ev.ID+`"}`)); err != nil {
		t.Fatal(err)
	}
	var job struct{ Job, Status, State string }
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("no live message for the round: %v", err)
		}
		var m struct{ Type, What string }
		_ = json.Unmarshal(data, &m)
		if m.Type == "subscribed" && job.Job == "" {
			if st := postJSON(t, base+"/tournaments/"+ev.ID+"/rounds", ev.Token, `{"round":1}`, &job); st != http.StatusAccepted || job.Job != ev.ID+":1" {
				t.Fatalf("pair: %d %+v", st, job)
			}
		}
		if m.Type == "tournament" && m.What == "round" {
			break
		}
	}
	for job.State != "done" {
		if job.State == "failed" || ctx.Err() != nil {
			t.Fatalf("job %+v", job)
		}
		time.Sleep(20 * time.Millisecond)
		res, err := http.Get(base + job.Status)
		if err != nil {
			t.Fatal(err)
		}
		_ = json.NewDecoder(res.Body).Decode(&job)
		res.Body.Close()
	}
	res, err := http.Get(base + "/tournaments/" + ev.ID + "/rounds/1")
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Pairings []struct{ GameID string } }
	_ = json.NewDecoder(res.Body).Decode(&r)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || len(r.Pairings) != 1 || r.Pairings[0].GameID == "" {
		t.Fatalf("round 1: %d %+v", res.StatusCode, r)
	}
}
