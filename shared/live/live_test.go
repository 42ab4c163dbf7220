package live_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"gopkg.in/yaml.v3"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/live"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// recorder is a Poster that keeps what each connection was sent; ids that
// begin with "gone" answer ErrGone, as API Gateway's 410.
type recorder struct {
	mu   sync.Mutex
	sent map[string][][]byte
}

func (r *recorder) Post(_ context.Context, id string, data []byte) error {
	if strings.HasPrefix(id, "gone") {
		return live.ErrGone
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent[id] = append(r.sent[id], data)
	return nil
}

func (r *recorder) messages(id string) [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent[id]
}

type fixture struct {
	st   *store.Store
	db   *embedded.Server
	api  string
	hub  *live.Hub
	post *recorder
	now  time.Time
}

func newFixture(t *testing.T, opts ...live.Option) *fixture {
	t.Helper()
	st, _, db := storetest.Start(t)
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	srv := httptest.NewServer(httpapi.New(st, httpapi.WithLogger(quiet)).Handler())
	t.Cleanup(srv.Close)
	f := &fixture{st: st, db: db, api: srv.URL, post: &recorder{sent: map[string][][]byte{}}, now: time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)}
	f.hub = live.New(st, f.post, append([]live.Option{live.WithClock(func() time.Time { return f.now }), live.WithLogger(quiet)}, opts...)...)
	return f
}

// game creates a standalone game through the API and returns its id.
func (f *fixture) game(t *testing.T) string {
	t.Helper()
	res, err := http.Post(f.api+"/games", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var g struct{ ID string }
	if err := json.NewDecoder(res.Body).Decode(&g); err != nil || g.ID == "" {
		t.Fatalf("create game: %v", err)
	}
	return g.ID
}

func wsEvent(eventType, routeKey, conn, body string, headers map[string]string) events.APIGatewayWebsocketProxyRequest {
	return events.APIGatewayWebsocketProxyRequest{
		Headers: headers, Body: body,
		RequestContext: events.APIGatewayWebsocketProxyRequestContext{
			EventType: eventType, RouteKey: routeKey, ConnectionID: conn, DomainName: "abc123.execute-api.us-east-1.amazonaws.com", Stage: "live",
		},
	}
}

// The Live function's handler: $connect under the origin policy, subscribe
// answered through the route response, $disconnect removing everything.
func TestSocket_ConnectSubscribeDisconnect(t *testing.T) {
	f := newFixture(t, live.WithOrigins([]string{"*.example.org"}))
	ctx := context.Background()
	gid := f.game(t)
	res, err := f.hub.Socket(ctx, wsEvent("CONNECT", "$connect", "c1=", "", map[string]string{"Origin": "https://evil.example"}))
	if err != nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a foreign origin: %d %v, want 403", res.StatusCode, err)
	}
	res, err = f.hub.Socket(ctx, wsEvent("CONNECT", "$connect", "c1=", "", map[string]string{"origin": "https://club.example.org"}))
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("an allowed origin: %d %v", res.StatusCode, err)
	}
	conn, err := f.st.Get(ctx, "C#c1=", "CONN")
	if err != nil {
		t.Fatal(err)
	}
	if want := f.now.Add(live.ConnectionTTL).Unix(); conn.Expires != want {
		t.Errorf("connection ttl %d, want %d", conn.Expires, want)
	}
	res, err = f.hub.Socket(ctx, wsEvent("MESSAGE", "subscribe", "c1=", `{"action":"subscribe","game":"`+gid+`"}`, nil))
	if err != nil || res.StatusCode != 200 || res.Body != `{"type":"subscribed","game":"`+gid+`"}` {
		t.Fatalf("subscribe: %d %q %v", res.StatusCode, res.Body, err)
	}
	sub, err := f.st.Get(ctx, "S#G#"+gid, "C#c1=")
	if err != nil || sub.Expires != conn.Expires {
		t.Fatalf("subscription item %+v (%v), want one expiring with its connection", sub, err)
	}
	if res, _ = f.hub.Socket(ctx, wsEvent("MESSAGE", "$default", "c1=", `{"action":"ping"}`, nil)); res.Body != `{"type":"pong"}` {
		t.Errorf("ping: %q, want a pong", res.Body)
	}
	res, _ = f.hub.Socket(ctx, wsEvent("MESSAGE", "$default", "c1=", `{"action":"watch"}`, nil))
	if !strings.Contains(res.Body, `"type":"error"`) {
		t.Errorf("an unknown action: %q, want an error reply", res.Body)
	}
	if res, err = f.hub.Socket(ctx, wsEvent("DISCONNECT", "$disconnect", "c1=", "", nil)); err != nil || res.StatusCode != 200 {
		t.Fatalf("disconnect: %d %v", res.StatusCode, err)
	}
	for _, k := range []store.Key{{PK: "C#c1=", SK: "CONN"}, {PK: "S#G#" + gid, SK: "C#c1="}} {
		if _, err := f.st.Get(ctx, k.PK, k.SK); err == nil {
			t.Errorf("%s/%s remains after $disconnect", k.PK, k.SK)
		}
	}
}

// A stream event exactly as DynamoDB Streams delivers it to Lambda (JSON,
// binary attributes in base64) reaches the game's subscribers as a game
// message whose body is GET /games/{gid}'s, and a gone subscriber is removed.
func TestStream_RealEventShapeToSubscribers(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	gid := f.game(t)
	for _, id := range []string{"a=", "gone-b="} {
		if err := f.hub.Connect(ctx, id); err != nil {
			t.Fatal(err)
		}
		if reply, err := f.hub.Handle(ctx, id, []byte(`{"action":"subscribe","game":"`+gid+`"}`)); err != nil || !strings.Contains(string(reply), "subscribed") {
			t.Fatalf("subscribe %s: %s %v", id, reply, err)
		}
	}
	rec, err := f.st.Get(ctx, "G#"+gid, "GAME")
	if err != nil {
		t.Fatal(err)
	}
	raw := fmt.Sprintf(`{"Records":[{"eventID":"1","eventName":"MODIFY","eventVersion":"1.1","eventSource":"aws:dynamodb","awsRegion":"us-east-1",
		"dynamodb":{"ApproximateCreationDateTime":1796136000,"Keys":{"PK":{"S":"G#%[1]s"},"SK":{"S":"GAME"}},
		"NewImage":{"PK":{"S":"G#%[1]s"},"SK":{"S":"GAME"},"kind":{"S":"game"},"ver":{"N":"%[2]d"},"doc":{"B":"%[3]s"}},
		"SequenceNumber":"111","SizeBytes":%[4]d,"StreamViewType":"NEW_IMAGE"},
		"eventSourceARN":"arn:aws:dynamodb:us-east-1:123456789012:table/xqtour/stream/2026-12-01T00:00:00.000"}]}`,
		gid, rec.Version, base64.StdEncoding.EncodeToString(rec.Doc), rec.Size())
	var ev events.DynamoDBEvent
	if err := json.Unmarshal([]byte(raw), &ev); err != nil {
		t.Fatal(err)
	}
	out, err := f.hub.Stream(ctx, ev)
	if err != nil || len(out.BatchItemFailures) != 0 {
		t.Fatalf("stream: %+v %v", out, err)
	}
	got := f.post.messages("a=")
	if len(got) != 1 {
		t.Fatalf("a= got %d messages, want 1", len(got))
	}
	want, err := games.JSON(rec, f.now.UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	if exp := fmt.Sprintf(`{"type":"game","serverTime":%d,"game":%s}`, f.now.UnixMilli(), want); string(got[0]) != exp {
		t.Errorf("message\n%s\nwant\n%s", got[0], exp)
	}
	if _, err := f.st.Get(ctx, "S#G#"+gid, "C#gone-b="); err == nil {
		t.Error("the gone subscriber's subscription remains")
	}
	if _, err := f.st.Get(ctx, "C#gone-b=", "CONN"); err == nil {
		t.Error("the gone subscriber's connection remains")
	}
}

// When the store fails, the record is reported so Lambda retries from it.
func TestStream_StoreFailureReportsRecordForRetry(t *testing.T) {
	f := newFixture(t)
	rec := &store.Record{PK: "T#t1", SK: "R#0002", Kind: "round", Version: 3}
	ev := events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{{EventName: "MODIFY", Change: events.DynamoDBStreamRecord{
		SequenceNumber: "42",
		Keys:           map[string]events.DynamoDBAttributeValue{"PK": events.NewStringAttribute(rec.PK), "SK": events.NewStringAttribute(rec.SK)},
		NewImage: map[string]events.DynamoDBAttributeValue{"PK": events.NewStringAttribute(rec.PK), "SK": events.NewStringAttribute(rec.SK),
			"kind": events.NewStringAttribute("round"), "ver": events.NewNumberAttribute("3")},
	}}}}
	f.db.Throttle(true)
	out, err := f.hub.Stream(context.Background(), ev)
	f.db.Throttle(false)
	if err != nil || len(out.BatchItemFailures) != 1 || out.BatchItemFailures[0].ItemIdentifier != "42" {
		t.Fatalf("failures %+v (%v), want record 42 reported", out.BatchItemFailures, err)
	}
}

// Which change says what to whom: rounds, results (with standings), players;
// connection and subscription items, removals and other kinds say nothing;
// an event message repeated in one batch is sent once.
func TestFanout_TournamentMessages(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	res, err := http.Post(f.api+"/tournaments", "application/json", strings.NewReader(`{"name":"Fan-out Open","system":"swiss","rounds":5}`))
	if err != nil {
		t.Fatal(err)
	}
	var ev struct{ ID string }
	_ = json.NewDecoder(res.Body).Decode(&ev)
	res.Body.Close()
	if err := f.hub.Connect(ctx, "w="); err != nil {
		t.Fatal(err)
	}
	if reply, _ := f.hub.Handle(ctx, "w=", []byte(`{"action":"subscribe","tournament":"`+ev.ID+`"}`)); !strings.Contains(string(reply), "subscribed") {
		t.Fatalf("subscribe: %s", reply)
	}
	pk := "T#" + ev.ID
	change := func(sk, kind string) store.Change {
		return store.Change{Key: store.Key{PK: pk, SK: sk}, New: &store.Record{PK: pk, SK: sk, Kind: kind, Version: 1}}
	}
	changes := []store.Change{
		change("R#0002", "round"),
		change("X#0002#0007", "result"),
		change("P#p1", "player"),
		change("P#p2", "player"),
		change("O#o1", "official"),
		change("M#m1", "team"),
		{Key: store.Key{PK: pk, SK: "R#0002"}},
		{Key: store.Key{PK: "C#x", SK: "CONN"}, New: &store.Record{PK: "C#x", SK: "CONN", Kind: "connection"}},
	}
	if i, err := f.hub.Fanout(ctx, changes); err != nil || i != -1 {
		t.Fatalf("fan-out: %d %v", i, err)
	}
	var got []string
	for _, m := range f.post.messages("w=") {
		var tm live.TournamentMessage
		if err := json.Unmarshal(m, &tm); err != nil || tm.Type != "tournament" || tm.Tournament != ev.ID || tm.ServerTime != f.now.UnixMilli() {
			t.Fatalf("not a tournament message: %s", m)
		}
		got = append(got, fmt.Sprintf("%s/%d", tm.What, tm.Round))
	}
	if want := []string{"round/2", "result/2", "standings/2", "players/0"}; !slices.Equal(got, want) {
		t.Errorf("messages %v, want %v", got, want)
	}
}

func TestOriginAllowed(t *testing.T) {
	for _, tc := range []struct {
		origin, host string
		patterns     []string
		want         bool
	}{
		{"", "a.example", nil, true},
		{"https://a.example", "a.example", nil, true},
		{"http://127.0.0.1:3000", "127.0.0.1:3000", nil, true},
		{"https://evil.example", "a.example", nil, false},
		{"https://evil.example", "a.example", []string{"*"}, true},
		{"https://club.example.org", "a.example", []string{"*.example.org"}, true},
		{"https://example.org.evil", "a.example", []string{"*.example.org"}, false},
		{"null", "a.example", nil, false},
	} {
		if got := live.OriginAllowed(tc.origin, tc.host, tc.patterns); got != tc.want {
			t.Errorf("OriginAllowed(%q, %q, %v) = %v, want %v", tc.origin, tc.host, tc.patterns, got, tc.want)
		}
	}
	if got := live.Origins(" *.a.org, ,b.org "); !slices.Equal(got, []string{"*.a.org", "b.org"}) {
		t.Errorf("Origins = %v", got)
	}
}

// The AsyncAPI document served at GET /asyncapi.yaml names exactly the
// messages and "what" values the code sends.
func TestAsyncAPI_DescribesTheProtocol(t *testing.T) {
	var doc struct {
		AsyncAPI   string `yaml:"asyncapi"`
		Components struct {
			Messages map[string]struct {
				Payload struct {
					Properties map[string]struct {
						Const string   `yaml:"const"`
						Enum  []string `yaml:"enum"`
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
	if !strings.HasPrefix(doc.AsyncAPI, "3.") {
		t.Errorf("asyncapi %q, want 3.x", doc.AsyncAPI)
	}
	what := msgs["tournament"].Payload.Properties["what"].Enum
	if want := []string{live.WhatRound, live.WhatResult, live.WhatStandings, live.WhatPlayers}; !slices.Equal(what, want) {
		t.Errorf("tournament.what %v, want %v", what, want)
	}
	if msgs["game"].Payload.Properties["type"].Const != "game" || !slices.Equal(msgs["game"].Payload.Required, []string{"type", "serverTime", "game"}) {
		t.Errorf("game message %+v", msgs["game"].Payload)
	}
	if got := msgs["reply"].Payload.Properties["type"].Enum; !slices.Equal(got, []string{"subscribed", "unsubscribed", "pong", "error"}) {
		t.Errorf("reply types %v", got)
	}
	for _, m := range []string{"subscribe", "unsubscribe", "ping"} {
		if msgs[m].Payload.Properties["action"].Const != m {
			t.Errorf("%s message's action is %q", m, msgs[m].Payload.Properties["action"].Const)
		}
	}
}

// What the cost table counts: pushing a move to its followers costs one
// Query (1 RRU for a few hundred followers) and no write, however many
// follow; subscribing costs two reads and two writes.
func TestCost_OneQueryPerPushedChange(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	gid := f.game(t)
	var mu sync.Mutex
	ops := map[string]int{}
	count := func(op string, _ []byte) embedded.Fault {
		mu.Lock()
		ops[op]++
		mu.Unlock()
		return embedded.Serve
	}
	for i := range 3 {
		id := fmt.Sprintf("c%d=", i)
		if err := f.hub.Connect(ctx, id); err != nil {
			t.Fatal(err)
		}
		f.db.Intercept(count)
		if _, err := f.hub.Handle(ctx, id, []byte(`{"action":"subscribe","game":"`+gid+`"}`)); err != nil {
			t.Fatal(err)
		}
		f.db.Intercept(nil)
	}
	if want := map[string]int{"GetItem": 6, "PutItem": 6}; !maps.Equal(ops, want) {
		t.Errorf("three subscriptions made %v, want %v", ops, want)
	}
	rec, err := f.st.Get(ctx, "G#"+gid, "GAME")
	if err != nil {
		t.Fatal(err)
	}
	clear(ops)
	f.db.Intercept(count)
	_, err = f.hub.Fanout(ctx, []store.Change{{Key: store.Key{PK: rec.PK, SK: rec.SK}, New: rec}})
	f.db.Intercept(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"Query": 1}; !maps.Equal(ops, want) {
		t.Errorf("pushing one move made %v, want %v", ops, want)
	}
	for i := range 3 {
		if n := len(f.post.messages(fmt.Sprintf("c%d=", i))); n != 1 {
			t.Errorf("c%d= got %d messages", i, n)
		}
	}
}

// The deployed handler keeps each connection id to the limits: its
// subscribes and unsubscribes per window (counted in its connection item,
// so every Lambda instance sees the same count; a refusal writes nothing),
// its subscriptions, and the size of a message; refusals are error replies
// on the socket naming the limit.
func TestSocket_LimitsPerConnectionID(t *testing.T) {
	f := newFixture(t, live.WithLimits(live.Limits{Changes: 3, Window: time.Minute, Subscriptions: 2, MessageBytes: 200}))
	ctx := context.Background()
	games := []string{f.game(t), f.game(t), f.game(t)}
	send := func(conn, body string) string {
		t.Helper()
		res, err := f.hub.Socket(ctx, wsEvent("MESSAGE", "$default", conn, body, nil))
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %v", body, res.StatusCode, err)
		}
		return res.Body
	}
	sub := func(gid string) string { return `{"action":"subscribe","game":"` + gid + `"}` }
	for _, conn := range []string{"a1=", "b1="} {
		if res, err := f.hub.Socket(ctx, wsEvent("CONNECT", "$connect", conn, "", nil)); err != nil || res.StatusCode != 200 {
			t.Fatalf("connect %s: %d %v", conn, res.StatusCode, err)
		}
	}
	send("a1=", sub(games[0]))
	send("a1=", `{"action":"unsubscribe","game":"`+games[0]+`"}`)
	send("a1=", sub(games[0]))
	m := &store.Meter{}
	res, err := f.hub.Socket(store.WithMeter(ctx, m), wsEvent("MESSAGE", "$default", "a1=", sub(games[1]), nil))
	if err != nil || !strings.Contains(res.Body, `"too_many_requests"`) {
		t.Fatalf("a fourth change in the window: %s %v", res.Body, err)
	}
	if m.WriteUnits() != 0 || m.Requests() != 1 {
		t.Errorf("a refused subscribe cost %d requests and %.0f write units; want the connection's read alone", m.Requests(), m.WriteUnits())
	}
	if got := send("b1=", sub(games[1])); got != `{"type":"subscribed","game":"`+games[1]+`"}` {
		t.Fatalf("another connection id has its own count: %s", got)
	}
	f.now = f.now.Add(time.Minute)
	send("a1=", sub(games[1]))
	if got := send("a1=", sub(games[2])); !strings.Contains(got, `"too_many_subscriptions"`) {
		t.Fatalf("a third subscription: %s", got)
	}
	if got := send("a1=", `{"action":"ping","game":"`+strings.Repeat("g", 300)+`"}`); !strings.Contains(got, `"message_too_large"`) {
		t.Fatalf("a 330-byte message: %s", got)
	}
}
