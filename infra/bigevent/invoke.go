package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/xqtour/xqtour/shared/store/embedded"
)

// lambdaResponseLimit is Lambda's limit on a synchronous invocation's
// response: the proxy response as JSON, body escaped inside it.
const lambdaResponseLimit = 6 * 1024 * 1024

// lambda invokes the API as the functions' proxy adapter does and measures
// each invocation.
type lambda struct {
	proxy    *httpadapter.HandlerAdapterV2
	stats    *stats
	storePID int       // the store's process
	units    *unitsLog // the API's request log lines' units
	store    *storeStats
	next     atomic.Int64
}

// request is one API call; route is its route pattern and label what the
// report's row adds to it.
type request struct {
	route, label, method, path, query, token, body string
}

// response is what the client gets back.
type response struct {
	status int
	body   []byte
}

// measure is one invocation's figures.
type measure struct {
	bytes     int           // the JSON-encoded proxy response
	wall      time.Duration // the handler's time
	cpu       time.Duration // this process's CPU time meanwhile (with one request at a time: the handler's)
	storeCPU  time.Duration // the store's process's CPU time meanwhile
	throttled int64         // requests the store refused for a hot partition meanwhile (with one request at a time: this one's)
	units     units         // DynamoDB capacity the request consumed
	status    int
	metered   bool // units were measured
	timedCPU  bool // cpu is the handler's alone (no other request ran)
}

// invoke runs one request through the adapter. alone says no other request
// runs meanwhile, so the process's CPU time is this handler's.
func (l *lambda) invoke(ctx context.Context, q request, alone bool) (response, error) {
	headers := map[string]string{"accept": "application/json", "host": "bigevent.local", "user-agent": "xqtour-bigevent"}
	if q.body != "" {
		headers["content-type"] = "application/json"
		headers["content-length"] = fmt.Sprint(len(q.body))
	}
	if q.token != "" {
		headers["authorization"] = "Bearer " + q.token
	}
	now := time.Now().UTC()
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: q.method + " " + q.route, RawPath: q.path, RawQueryString: q.query, Headers: headers,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			RouteKey: q.method + " " + q.route, Stage: "$default", RequestID: fmt.Sprintf("bigevent-%d", l.next.Add(1)),
			DomainName: "bigevent.local", Time: now.Format("02/Jan/2006:15:04:05 -0700"), TimeEpoch: now.UnixMilli(),
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: q.method, Path: q.path, Protocol: "HTTP/1.1", SourceIP: "127.0.0.1", UserAgent: "xqtour-bigevent"},
		},
		Body: q.body,
	}
	var t0 embedded.Throttles
	if alone {
		t0 = l.store.throttled()
	}
	cpu0, store0 := cpuTime(), processCPU(l.storePID)
	began := time.Now()
	res, err := l.proxy.ProxyWithContext(ctx, ev)
	wall := time.Since(began)
	cpu, storeCPU := cpuTime()-cpu0, processCPU(l.storePID)-store0
	var throttled int64
	if alone {
		t1 := l.store.throttled()
		throttled = t1.Reads + t1.Writes - t0.Reads - t0.Writes
	}
	if err != nil {
		return response{}, fmt.Errorf("%s %s: %w", q.method, q.path, err)
	}
	encoded, err := json.Marshal(res)
	if err != nil {
		return response{}, err
	}
	u, metered := l.units.take(ev.RequestContext.RequestID)
	l.stats.add(q.method+" "+q.route+q.label, measure{bytes: len(encoded), wall: wall, cpu: cpu, storeCPU: storeCPU, units: u, status: res.StatusCode, metered: metered, timedCPU: alone, throttled: throttled})
	body := []byte(res.Body)
	if res.IsBase64Encoded {
		return response{}, fmt.Errorf("%s %s: a base64 body", q.method, q.path)
	}
	return response{status: res.StatusCode, body: body}, nil
}

// call is invoke that wants status want and decodes the JSON answer into out.
func (l *lambda) call(ctx context.Context, q request, alone bool, want int, out any) error {
	res, err := l.invoke(ctx, q, alone)
	if err != nil {
		return err
	}
	if res.status != want {
		return fmt.Errorf("%s %s: %d, want %d: %s", q.method, q.path, res.status, want, clip(string(res.body)))
	}
	if out != nil {
		return json.Unmarshal(res.body, out)
	}
	return nil
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
