package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/live"
	"github.com/xqtour/xqtour/shared/pricing"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// call sends one API request to the fixture's API and decodes its answer.
func (f *fixture) call(t *testing.T, method, path, token, body string, out any) {
	t.Helper()
	req, _ := http.NewRequest(method, f.api+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(res.Body)
	if res.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b.Bytes())
	}
	if out != nil {
		if err := json.Unmarshal(b.Bytes(), out); err != nil {
			t.Fatal(err)
		}
	}
}

// eventMove creates a two-player event with settings, pairs and starts
// round 1, makes Red's first move and returns the event and the game item
// after it.
func (f *fixture) eventMove(t *testing.T, settings string) (string, *store.Record) {
	t.Helper()
	var ev struct{ ID, Token string }
	f.call(t, "POST", "/tournaments", "", settings, &ev)
	tokens := map[string]string{}
	for _, name := range []string{"Hu Ronghua", "Liu Dahua"} {
		var p struct{ ID, Token string }
		f.call(t, "POST", "/tournaments/"+ev.ID+"/players", ev.Token, `{"name":"`+name+`"}`, &p)
		tokens[p.ID] = p.Token
	}
	var round struct {
		Pairings []struct {
			Red    string
			GameID string `json:"gameId"`
		}
	}
	f.call(t, "POST", "/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`, &round)
	f.call(t, "POST", "/tournaments/"+ev.ID+"/rounds/1/start", ev.Token, ``, nil)
	p := round.Pairings[0]
	f.call(t, "POST", "/games/"+p.GameID+"/moves", tokens[p.Red], `{"move":"h2e2","ply":0,"press":true}`, nil)
	rec, err := f.st.Get(context.Background(), store.GamePK(p.GameID), store.GameSK)
	if err != nil {
		t.Fatal(err)
	}
	return ev.ID, rec
}

func (f *fixture) subscribe(t *testing.T, id, body string) {
	t.Helper()
	ctx := context.Background()
	if err := f.hub.Connect(ctx, id); err != nil {
		t.Fatal(err)
	}
	if reply, err := f.hub.Handle(ctx, id, []byte(body)); err != nil || !strings.Contains(string(reply), `"subscribed"`) {
		t.Fatalf("subscribe %s: %s %v", id, reply, err)
	}
}

// A game change reaches its round's followers as one compact move message
// (the game channel's followers still get the whole game), in one Query
// per topic.
func TestFanout_RoundMessage(t *testing.T) {
	f := newFixture(t)
	tid, rec := f.eventMove(t, `{"name":"Round","rounds":3}`)
	gid, _ := store.GameOf(rec.PK)
	f.subscribe(t, "r=", fmt.Sprintf(`{"action":"subscribe","round":{"tournament":%q,"round":1}}`, tid))
	f.subscribe(t, "g=", fmt.Sprintf(`{"action":"subscribe","game":%q}`, gid))
	if i, err := f.hub.Fanout(context.Background(), []store.Change{{Key: store.Key{PK: rec.PK, SK: rec.SK}, New: rec}}); i >= 0 || err != nil {
		t.Fatal(i, err)
	}
	got := f.post.messages("r=")
	if len(got) != 1 {
		t.Fatalf("the round's follower got %d messages, want 1", len(got))
	}
	t.Logf("a round message: %d bytes", len(got[0]))
	var m map[string]any
	_ = json.Unmarshal(got[0], &m)
	if m["type"] != "move" || m["tournament"] != tid || m["round"] != 1.0 || m["table"] != 1.0 || m["game"] != gid || m["ply"] != 1.0 ||
		m["move"] != "h2e2" || m["fen"] == nil || m["clocks"] == nil || m["serverTime"] != float64(f.now.UnixMilli()) {
		t.Errorf("round message %s", got[0])
	}
	if g := f.post.messages("g="); len(g) != 1 || !strings.HasPrefix(string(g[0]), `{"type":"game"`) {
		t.Errorf("the game's follower got %q", g)
	}
}

// Deployed, where the fan-out cannot wait, a game under a broadcast delay
// is announced to its public followers with the instant it shows from and
// nothing of the move.
func TestFanout_DelayedGameIsAnnouncedNotShown(t *testing.T) {
	f := newFixture(t) // no WithLater: as the deployed fan-out
	tid, rec := f.eventMove(t, `{"name":"Delayed","rounds":3,"broadcastDelaySeconds":30}`)
	gid, _ := store.GameOf(rec.PK)
	f.subscribe(t, "r=", fmt.Sprintf(`{"action":"subscribe","round":{"tournament":%q,"round":1}}`, tid))
	f.subscribe(t, "g=", fmt.Sprintf(`{"action":"subscribe","game":%q}`, gid))
	if i, err := f.hub.Fanout(context.Background(), []store.Change{{Key: store.Key{PK: rec.PK, SK: rec.SK}, New: rec}}); i >= 0 || err != nil {
		t.Fatal(i, err)
	}
	for _, id := range []string{"r=", "g="} {
		got := f.post.messages(id)
		if len(got) != 1 {
			t.Fatalf("%s got %d messages, want 1", id, len(got))
		}
		want := fmt.Sprintf(`{"type":"delayed","game":%q,"tournament":%q,"round":1,"table":1,"visibleAt":%d,"serverTime":%d}`,
			gid, tid, f.now.UnixMilli()+30_000, f.now.UnixMilli())
		if string(got[0]) != want {
			t.Errorf("%s got\n%s\nwant\n%s", id, got[0], want)
		}
	}
}

// The AsyncAPI document names every field of the round channel's messages
// as the hub writes them, and the subscribe message takes a round.
func TestAsyncAPI_DescribesTheRoundChannel(t *testing.T) {
	var doc struct {
		Components struct {
			Messages map[string]struct {
				Payload struct {
					Properties map[string]struct {
						Const string `yaml:"const"`
					} `yaml:"properties"`
					Required []string `yaml:"required"`
				} `yaml:"payload"`
			} `yaml:"messages"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(httpapi.AsyncAPI, &doc); err != nil {
		t.Fatal(err)
	}
	msgs := doc.Components.Messages
	// The fields a message of kind always carries, and result's too.
	fields := func(kind string, v any) []string {
		var out []string
		for f := range reflect.TypeOf(v).Fields() {
			name, opt, _ := strings.Cut(f.Tag.Get("json"), ",")
			if opt != "omitempty" || kind == "result" || name == "move" {
				out = append(out, name)
			}
		}
		return out
	}
	for kind, v := range map[string]any{"move": live.RoundMessage{}, "result": live.RoundMessage{}, "clock": live.RoundMessage{}, "delayed": live.DelayedMessage{}} {
		m, ok := msgs[kind]
		if !ok || m.Payload.Properties["type"].Const != kind {
			t.Errorf("no %s message", kind)
			continue
		}
		for _, f := range fields(kind, v) {
			if _, ok := m.Payload.Properties[f]; !ok {
				t.Errorf("%s message lacks %s", kind, f)
			}
		}
	}
	if _, ok := msgs["subscribe"].Payload.Properties["round"]; !ok {
		t.Error("subscribe takes no round")
	}
}

// What the broadcast cost table counts for the fan-out: a change of an
// event game costs one Query for the game's followers and one for its
// round's, and no write.
func TestCost_EventGameChangeTwoQueries(t *testing.T) {
	f := newFixture(t)
	tid, rec := f.eventMove(t, `{"name":"Cost","rounds":3}`)
	for i := range 3 {
		f.subscribe(t, fmt.Sprintf("c%d=", i), fmt.Sprintf(`{"action":"subscribe","round":{"tournament":%q,"round":1}}`, tid))
	}
	var mu sync.Mutex
	ops := map[string]int{}
	f.db.Intercept(func(op string, _ []byte) embedded.Fault {
		mu.Lock()
		ops[op]++
		mu.Unlock()
		return embedded.Serve
	})
	_, err := f.hub.Fanout(context.Background(), []store.Change{{Key: store.Key{PK: rec.PK, SK: rec.SK}, New: rec}})
	f.db.Intercept(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"Query": 2}; !maps.Equal(ops, want) {
		t.Errorf("pushing one move of an event game made %v, want %v", ops, want)
	}
}

// broadcastUsage is the deployed use of 500 spectators following every
// board of a 9-round, 100-player Swiss (50 boards a round, 150 moves a
// game, 450 game ends) for 120 minutes a round, subscribing to each board
// (perGame) or to the round: the README's broadcast cost table.
type broadcastUsage struct {
	liveCalls, messages, minutes, fanoutCalls float64
	lambdaGBs, reads, writes                  float64
}

func broadcastCost(perGame bool) (broadcastUsage, float64) {
	const (
		viewers    = 500
		rounds     = 9
		boards     = 50
		changes    = 67_500 + 450 // moves and game ends
		fanoutMs   = 500          // 500 posts through the Management API per change
		liveMs     = 20
		memoryGB   = 0.25
		queryReads = 10 + 1 // 500 subscription items (~80 B) strongly consistent, and the other topic's empty Query
	)
	spells := float64(viewers * rounds) // one spectator for one round
	subs := 1.0
	if perGame {
		subs = boards
	}
	u := broadcastUsage{
		liveCalls:   spells * (subs + 2),                    // connect, subscribes, disconnect
		messages:    changes*viewers + spells*subs,          // a message per change per spectator, and the replies
		minutes:     spells * 120,                           //
		fanoutCalls: changes,                                //
		reads:       spells*(2*subs+1) + changes*queryReads, // each subscribe reads the connection and the topic; disconnect reads the connection
		writes:      spells * (1 + 2*subs + subs + 1),       // connect; subscription and connection per subscribe; disconnect deletes each and the connection
	}
	u.lambdaGBs = (u.liveCalls*liveMs + changes*fanoutMs) / 1000 * memoryGB
	p := pricing.OnDemand
	total := u.messages*p.WebSocketMessage + u.minutes*p.WebSocketConnectionMinute +
		(u.liveCalls+u.fanoutCalls)*p.LambdaRequest + u.lambdaGBs*p.LambdaGBSecond +
		u.reads*p.ReadUnit + u.writes*p.WriteUnit
	return u, total
}

// The figures of the README's broadcast cost table.
func TestCost_BroadcastTable(t *testing.T) {
	for _, c := range []struct {
		perGame             bool
		liveCalls, messages float64
		reads, writes       float64
		total               string
	}{
		{perGame: true, liveCalls: 234_000, messages: 34_200_000, reads: 1_201_950, writes: 684_000, total: "$35.10"},
		{perGame: false, liveCalls: 13_500, messages: 33_979_500, reads: 760_950, writes: 22_500, total: "$34.35"},
	} {
		u, total := broadcastCost(c.perGame)
		if u.liveCalls != c.liveCalls || u.messages != c.messages || u.reads != c.reads || u.writes != c.writes {
			t.Errorf("per game %v: %+v", c.perGame, u)
		}
		if got := fmt.Sprintf("$%.2f", total); got != c.total {
			t.Errorf("per game %v: total %s, want %s (%+v)", c.perGame, got, c.total, u)
		}
	}
}
