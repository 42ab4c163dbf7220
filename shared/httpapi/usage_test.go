package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/httpapi/telemetry"
	"github.com/xqtour/xqtour/shared/pricing"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

type usageBody struct {
	Tournament       string  `json:"tournament"`
	Requests         float64 `json:"requests"`
	LambdaMs         float64 `json:"lambdaMs"`
	LambdaGBSeconds  float64 `json:"lambdaGbSeconds"`
	ReadUnits        float64 `json:"readUnits"`
	WriteUnits       float64 `json:"writeUnits"`
	DynamoDBRequests float64 `json:"dynamodbRequests"`
	Cost             struct {
		Currency   string  `json:"currency"`
		APIGateway float64 `json:"apiGateway"`
		Lambda     float64 `json:"lambda"`
		DynamoDB   float64 `json:"dynamodb"`
		Total      float64 `json:"total"`
	} `json:"cost"`
	Prices string `json:"prices"`
}

func getUsage(t *testing.T, s *apitest.Server, tid, token string) usageBody {
	t.Helper()
	var u usageBody
	s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + tid + "/usage", Token: token}).Want(t, http.StatusOK).Decode(t, &u)
	return u
}

type units struct{ requests, read, write, calls float64 }

func wantUsage(t *testing.T, what string, u usageBody, want units) {
	t.Helper()
	got := units{u.Requests, u.ReadUnits, u.WriteUnits, u.DynamoDBRequests}
	if got != want {
		t.Errorf("%s: requests, read units, write units, DynamoDB calls = %v, want %v", what, got, want)
	}
}

// size is the stored size of an item as DynamoDB counts it.
func size(t *testing.T, st *store.Store, pk, sk string) int {
	t.Helper()
	r, err := st.Get(context.Background(), pk, sk)
	if err != nil {
		t.Fatal(err)
	}
	return r.Size()
}

// The usage route over HTTP against the units of a known sequence, derived
// from the items' sizes with DynamoDB's rounding: creating the event is one
// Put of the event item; registering a player reads the event item and
// writes it and the player item in one transaction (each write doubled); the
// usage route reads the event item and the usage item. Usage is gathered in
// memory for a minute, then written by one ADD whose own unit counts next
// time. Every write request then advances its event's views stamp: one
// conditional UpdateItem of a small item, one write unit (billed also when no
// reader has created the stamp yet and the condition refuses it).
func TestUsage_KnownSequence(t *testing.T) {
	s := apitest.New(t, httpapi.WithUsageFlush(time.Minute))
	ev := newEvent(t, s, `{"name":"Metered","rounds":3}`)
	meta := func() int { return size(t, s.Store, store.TournamentPK(ev.ID), store.MetaSK) }
	const stampWrite = 1
	want := units{1, 0, store.WriteUnits(meta()) + stampWrite, 1 + 1}
	register := func(name string) {
		t.Helper()
		read := store.ReadUnits(meta(), true)
		var p struct {
			Player struct {
				ID string `json:"id"`
			} `json:"player"`
		}
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		want.requests++
		want.read += read
		want.write += 2*(store.WriteUnits(meta())+store.WriteUnits(size(t, s.Store, store.TournamentPK(ev.ID), store.PlayerSK(p.Player.ID)))) + stampWrite
		want.calls += 2 + 1
	}
	register("Li")
	// The first write of this API asks whether the stack holds any mirror's
	// read-only mark (mirror.go): one read of an absent item, then none for
	// marksTTL of the API's clock.
	want.read += store.ReadUnits(0, true)
	want.calls++
	register("Wang")
	u := getUsage(t, s, ev.ID, ev.Token)
	wantUsage(t, "create and two registrations", u, want)
	if u.Tournament != ev.ID || u.LambdaMs < 3 || u.Prices != pricing.Source {
		t.Errorf("usage %+v: want the event's id, at least 1 ms a request, the price source", u)
	}
	if got := u.LambdaMs * 256 / 1024 / 1000; math.Abs(u.LambdaGBSeconds-got) > 1e-12 {
		t.Errorf("lambdaGbSeconds %v, want lambdaMs × 256 MB = %v", u.LambdaGBSeconds, got)
	}
	if c, err := s.Store.Counters(context.Background(), store.UsagePK(ev.ID), store.UsageSK); err != nil || len(c) != 0 {
		t.Fatalf("usage written before the interval passed: %v %v", c, err)
	}
	want.requests++ // the usage request: the event item and the (missing) usage item
	want.read += store.ReadUnits(meta(), true) + store.ReadUnits(0, true)
	want.calls += 2

	// A minute later the next request writes everything so far with one ADD.
	s.Clock.Advance(time.Minute)
	register("Zhao")
	want.read += store.ReadUnits(0, true) // the marks asked about again, a minute on
	want.calls++
	stored, err := s.Store.Counters(context.Background(), store.UsagePK(ev.ID), store.UsageSK)
	if err != nil {
		t.Fatal(err)
	}
	if got := (units{stored["requests"], stored["readUnits"], stored["writeUnits"], stored["dynamodbRequests"]}); got != want {
		t.Errorf("written usage %v, want %v", got, want)
	}
	// The flush's own write (1 unit, 1 call) is pending now and shows.
	want.write++
	want.calls++
	u = getUsage(t, s, ev.ID, ev.Token)
	wantUsage(t, "after the flush", u, want)
	usageRead := store.ReadUnits(meta(), true) + store.ReadUnits(size(t, s.Store, store.UsagePK(ev.ID), store.UsageSK), true)
	r := s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + ev.ID + "/usage", Token: ev.Token}).Want(t, http.StatusOK).JSON()
	cost := r["cost"].(map[string]any)
	p := pricing.OnDemand
	if cost["currency"] != "USD" || cost["apiGateway"] != pricing.Round6((want.requests+1)*p.HTTPRequest) ||
		cost["dynamodb"] != pricing.Round6((want.read+usageRead)*p.ReadUnit+want.write*p.WriteUnit) {
		t.Errorf("cost %v; want API Gateway for %v requests, DynamoDB for %v read and %v write units", cost, want.requests+1, want.read+usageRead, want.write)
	}
	c := p.Cost(pricing.Usage{HTTPRequests: want.requests + 1, LambdaMBMs: u.LambdaMs * 256, ReadUnits: want.read + usageRead, WriteUnits: want.write})
	if total := cost["total"].(float64); total < pricing.Round6(c.Total) || math.Abs(total-(cost["apiGateway"].(float64)+cost["lambda"].(float64)+cost["dynamodb"].(float64))) > 2e-6 {
		t.Errorf("total %v: want at least %v and the sum of its parts", total, pricing.Round6(c.Total))
	}
}

// A game route counts for the game's event, found through the game item.
func TestUsage_GameRouteCountsForItsEvent(t *testing.T) {
	s := apitest.New(t, httpapi.WithUsageFlush(time.Hour))
	ev := newEvent(t, s, `{"name":"Games","rounds":1}`)
	for _, name := range []string{"Li", "Wang"} {
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated)
	}
	var round struct {
		Pairings []struct {
			GameID string `json:"gameId"`
		} `json:"pairings"`
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{}).Want(t, http.StatusCreated).Decode(t, &round)
	if len(round.Pairings) != 1 || round.Pairings[0].GameID == "" {
		t.Fatalf("round: %+v", round)
	}
	before := getUsage(t, s, ev.ID, ev.Token)
	gid := round.Pairings[0].GameID
	game, err := s.Store.Get(context.Background(), store.GamePK(gid), store.GameSK)
	if err != nil {
		t.Fatal(err)
	}
	s.Get("/games/"+gid).Want(t, http.StatusOK)
	after := getUsage(t, s, ev.ID, ev.Token)
	// The first usage request (the event item and the missing usage item) and the game read.
	meta := store.ReadUnits(size(t, s.Store, store.TournamentPK(ev.ID), store.MetaSK), true)
	want := units{before.Requests + 2, before.ReadUnits + meta + store.ReadUnits(0, true) + store.ReadUnits(game.Size(), true), before.WriteUnits, before.DynamoDBRequests + 3}
	wantUsage(t, "a game read", after, want)
}

// Requests that never found an event count for none and write nothing: an
// unknown id cannot make usage items.
func TestUsage_UnknownEventsMakeNoItems(t *testing.T) {
	s := apitest.New(t, httpapi.WithUsageFlush(0))
	ev := newEvent(t, s, `{"name":"Real","rounds":3}`)
	for _, path := range []string{"/tournaments/tnosuchevent23456/standings", "/tournaments/tnosuchevent23456/usage"} {
		if r := s.Do(apitest.Req{Method: "GET", Path: path, Token: ev.Token}); r.Status != http.StatusNotFound {
			t.Errorf("GET %s: %d %s", path, r.Status, r.Body)
		}
	}
	if c, err := s.Store.Counters(context.Background(), store.UsagePK("tnosuchevent23456"), store.UsageSK); err != nil || len(c) != 0 {
		t.Errorf("an unknown event got usage %v (%v)", c, err)
	}
	if r := s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + ev.ID + "/usage"}); r.Status != http.StatusUnauthorized {
		t.Errorf("usage without a token: %d %s", r.Status, r.Body)
	}
	s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": "Li"}).Want(t, http.StatusCreated)
	var p created
	s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": "Wang"}).Want(t, http.StatusCreated).Decode(t, &p)
	if r := s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + ev.ID + "/usage", Token: p.Token}); r.Status != http.StatusForbidden {
		t.Errorf("usage with a player's token: %d %s", r.Status, r.Body)
	}
	// With no interval every request writes: what was counted is in the item.
	if c, err := s.Store.Counters(context.Background(), store.UsagePK(ev.ID), store.UsageSK); err != nil || c["requests"] < 3 {
		t.Errorf("usage item %v (%v), want the creation and registrations", c, err)
	}
}

// In Lambda the log line carries the invocation's ids, as Powertools logs them.
func TestObserve_LambdaFields(t *testing.T) {
	t.Setenv("_X_AMZN_TRACE_ID", "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1")
	var logs bytes.Buffer
	var mu sync.Mutex
	st, _ := storetest.New(t)
	api := httpapi.New(st, httpapi.WithLogger(telemetry.NewLogger(&lockedWriter{w: &logs, mu: &mu})))
	lc := &lambdacontext.LambdaContext{AwsRequestID: "c6af9ac6-7b61-11e6-9a41-93e812345678", InvokedFunctionArn: "arn:aws:lambda:us-east-1:123456789012:function:xqtour-Tournaments"}
	req := httptest.NewRequest("GET", "/rules", nil).WithContext(lambdacontext.NewContext(context.Background(), lc))
	rec := httptest.NewRecorder()
	api.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /rules: %d", rec.Code)
	}
	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil {
		t.Fatalf("log line %q: %v", logs.String(), err)
	}
	if line["function_request_id"] != lc.AwsRequestID || line["function_arn"] != lc.InvokedFunctionArn || line["xray_trace_id"] != "1-5759e988-bd862e3fe1be46a994272793" {
		t.Errorf("log line %v: want the request id, the function ARN and the trace's root id", line)
	}
}

// One JSON log line and one EMF line per request, in Powertools' shapes,
// with no token in either.
func TestObserve_LogAndMetricLines(t *testing.T) {
	var logs, metrics bytes.Buffer
	var mu sync.Mutex
	s := apitest.New(t, httpapi.WithLogger(telemetry.NewLogger(&lockedWriter{w: &logs, mu: &mu})), httpapi.WithMetrics(&metrics))
	ev := newEvent(t, s, `{"name":"Logged","rounds":3}`)
	s.Get("/tournaments/"+ev.ID).Want(t, http.StatusOK)
	s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Token: ev.Token + "x", Body: map[string]any{"name": "Li"}})

	mu.Lock()
	logText := logs.String()
	mu.Unlock()
	if strings.Contains(logText, ev.Token) || strings.Contains(metrics.String(), ev.Token) {
		t.Fatal("a token reached the logs")
	}
	var lines []map[string]any
	for sc := bufio.NewScanner(strings.NewReader(logText)); sc.Scan(); {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		if m["message"] == "request" {
			lines = append(lines, m)
		}
	}
	if len(lines) != 3 {
		t.Fatalf("%d request lines, want 3:\n%s", len(lines), logText)
	}
	get := lines[1]
	for _, k := range []string{"level", "message", "timestamp", "service", "cold_start", "request_id", "route", "method", "status", "latency_ms", "tournament_id", "conflict", "throttled", "read_units", "write_units"} {
		if _, ok := get[k]; !ok {
			t.Errorf("log line lacks %q: %v", k, get)
		}
	}
	if get["level"] != "INFO" || get["service"] != "xqtour" || get["route"] != "GET /tournaments/{tid}" || get["status"] != 200.0 || get["tournament_id"] != ev.ID {
		t.Errorf("log line %v", get)
	}
	if ts, _ := get["timestamp"].(string); !strings.HasSuffix(ts, "Z") {
		t.Errorf("timestamp %q is not UTC ISO 8601", ts)
	}
	if lines[2]["status"] != 403.0 && lines[2]["status"] != 401.0 {
		t.Errorf("refused registration logged as %v", lines[2]["status"])
	}

	var emf []map[string]any
	for sc := bufio.NewScanner(&metrics); sc.Scan(); {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("metric line %q: %v", sc.Text(), err)
		}
		emf = append(emf, m)
	}
	if len(emf) != 3 {
		t.Fatalf("%d metric lines, want 3", len(emf))
	}
	for i, m := range emf {
		aws, _ := m["_aws"].(map[string]any)
		if _, ok := aws["Timestamp"].(float64); !ok {
			t.Fatalf("line %d: _aws.Timestamp missing: %v", i, m)
		}
		cwm, _ := aws["CloudWatchMetrics"].([]any)
		if len(cwm) != 1 {
			t.Fatalf("line %d: CloudWatchMetrics %v", i, aws["CloudWatchMetrics"])
		}
		d := cwm[0].(map[string]any)
		if d["Namespace"] != "xqtour" {
			t.Errorf("namespace %v", d["Namespace"])
		}
		dims, _ := d["Dimensions"].([]any)
		if len(dims) != 1 {
			t.Fatalf("dimensions %v", d["Dimensions"])
		}
		for _, name := range dims[0].([]any) {
			if _, ok := m[name.(string)].(string); !ok {
				t.Errorf("line %d: dimension %v has no string value", i, name)
			}
		}
		names := map[string]bool{}
		for _, x := range d["Metrics"].([]any) {
			def := x.(map[string]any)
			n := def["Name"].(string)
			names[n] = true
			if _, ok := m[n].(float64); !ok {
				t.Errorf("line %d: metric %s has no number", i, n)
			}
			if def["Unit"] != "Count" && def["Unit"] != "Milliseconds" {
				t.Errorf("metric %s unit %v", n, def["Unit"])
			}
		}
		for _, n := range []string{"Latency", "Count", "4xx", "409", "429", "5xx"} {
			if !names[n] {
				t.Errorf("line %d lacks metric %s", i, n)
			}
		}
	}
	if emf[1]["route"] != "GET /tournaments/{tid}" || emf[1]["4xx"] != 0.0 || emf[2]["4xx"] != 1.0 || emf[2]["5xx"] != 0.0 {
		t.Errorf("metric values: %v / %v", emf[1], emf[2])
	}
}

// A meter around the API (apitest.NewMetered, make bigevent's) sees the same
// units as the request's own meter, which the usage route adds up.
func TestUsage_OuterMeterCountsToo(t *testing.T) {
	s, meter := apitest.NewMetered(t, httpapi.WithUsageFlush(time.Hour))
	ev := newEvent(t, s, `{"name":"Both","rounds":3}`)
	s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": "Li"}).Want(t, http.StatusCreated)
	read, write := meter.Units()
	calls := meter.Calls()
	meter.Reset()
	u := getUsage(t, s, ev.ID, ev.Token)
	if read == 0 || write == 0 || u.ReadUnits != read || u.WriteUnits != write || u.DynamoDBRequests != float64(calls) {
		t.Errorf("outer meter %v read, %v write, %d calls; usage route %v, %v, %v: want the same", read, write, calls, u.ReadUnits, u.WriteUnits, u.DynamoDBRequests)
	}
}
