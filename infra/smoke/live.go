package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/xqtour/xqtour/shared/store"
)

// management stands in for API Gateway's Management API on a loopback port:
// it takes POST /live/@connections/{id} signed with SigV4 for execute-api,
// keeps what each connection was sent, and answers 410 Gone for ids that
// begin with "gone".
type management struct {
	websocketURL string // what LiveFanout gets as WEBSOCKET_URL
	mu           sync.Mutex
	posts        map[string][][]byte
	unsigned     int
}

func startManagement(ctx context.Context) (*management, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &management{websocketURL: "ws://" + ln.Addr().String() + "/live", posts: map[string][][]byte{}}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := strings.CutPrefix(r.URL.Path, "/live/@connections/")
		if r.Method != http.MethodPost || !ok {
			http.NotFound(w, r)
			return
		}
		auth := r.Header.Get("Authorization")
		if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=local/") || !strings.Contains(auth, "/"+region+"/execute-api/aws4_request") {
			m.mu.Lock()
			m.unsigned++
			m.mu.Unlock()
			w.WriteHeader(http.StatusForbidden)
			return
		}
		if strings.HasPrefix(id, "gone") {
			w.WriteHeader(http.StatusGone)
			_, _ = w.Write([]byte(`{"message":"GoneException"}`))
			return
		}
		body, _ := io.ReadAll(r.Body)
		m.mu.Lock()
		m.posts[id] = append(m.posts[id], body)
		m.mu.Unlock()
	})}
	go func() { _ = srv.Serve(ln) }()
	context.AfterFunc(ctx, func() { _ = srv.Close() })
	return m, nil
}

func (m *management) sent(id string) [][]byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.posts[id]
}

// invokeRaw posts any event to a function's emulator and decodes its answer.
func (s *smoke) invokeRaw(ctx context.Context, fn string, event, out any) error {
	e := s.emulators[fn]
	if e == nil || e.cmd == nil {
		return fmt.Errorf("no emulator for %s", fn)
	}
	payload, err := json.Marshal(event)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("invoke %s: %w", fn, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK || bytes.Contains(body, []byte(`"errorType"`)) {
		return fmt.Errorf("%s failed: %d %s", fn, res.StatusCode, trim(body))
	}
	e.invokes++
	return json.Unmarshal(body, out)
}

// socketEvent is an API Gateway WebSocket event as the Live function gets it.
func socketEvent(eventType, routeKey, connection, body string) events.APIGatewayWebsocketProxyRequest {
	now := time.Now().UTC()
	return events.APIGatewayWebsocketProxyRequest{
		Headers: map[string]string{"Host": "smoke.execute-api.local", "Origin": "https://smoke.execute-api.local"},
		RequestContext: events.APIGatewayWebsocketProxyRequestContext{
			AccountID: "123456789012", APIID: "smoke", Stage: "live", DomainName: "smoke.execute-api.local",
			ConnectionID: connection, EventType: eventType, RouteKey: routeKey, MessageDirection: "IN",
			RequestID: fmt.Sprintf("smoke-%d", now.UnixNano()), RequestTimeEpoch: now.UnixMilli(), ConnectedAt: now.UnixMilli(),
		},
		Body: body,
	}
}

// streamRecord is the stream record DynamoDB writes for a changed item
// (StreamViewType NEW_IMAGE), built from the item as stored.
func streamRecord(rec *store.Record, seq int) events.DynamoDBEventRecord {
	image := map[string]events.DynamoDBAttributeValue{
		"PK":   events.NewStringAttribute(rec.PK),
		"SK":   events.NewStringAttribute(rec.SK),
		"kind": events.NewStringAttribute(rec.Kind),
		"ver":  events.NewNumberAttribute(strconv.FormatInt(rec.Version, 10)),
		"doc":  events.NewBinaryAttribute(rec.Doc),
	}
	return events.DynamoDBEventRecord{
		AWSRegion: region, EventID: fmt.Sprintf("smoke-%d", seq), EventName: "MODIFY", EventSource: "aws:dynamodb", EventVersion: "1.1",
		EventSourceArn: "arn:aws:dynamodb:" + region + ":123456789012:table/" + table + "/stream/2026-12-01T00:00:00.000",
		Change: events.DynamoDBStreamRecord{
			ApproximateCreationDateTime: events.SecondsEpochTime{Time: time.Now()},
			Keys:                        map[string]events.DynamoDBAttributeValue{"PK": image["PK"], "SK": image["SK"]},
			NewImage:                    image,
			SequenceNumber:              fmt.Sprintf("%021d", seq),
			SizeBytes:                   int64(rec.Size()),
			StreamViewType:              "NEW_IMAGE",
		},
	}
}

// liveChecks runs the live-updates functions: two connections subscribe to
// the game, the fan-out gets the game's stream record and posts the game
// message to the one that is there, removes the gone one, and the first
// disconnects.
func (s *smoke) liveChecks(ctx context.Context, gid string) {
	socket := func(what, eventType, routeKey, conn, body string, verify func(events.APIGatewayProxyResponse) error) {
		var res events.APIGatewayProxyResponse
		err := s.invokeRaw(ctx, "Live", socketEvent(eventType, routeKey, conn, body), &res)
		if err == nil {
			err = verify(res)
		}
		if err != nil {
			s.fail("Live        "+what, err.Error())
			s.failedFns["Live"] = true
			return
		}
		s.pass("Live        "+what, fmt.Sprintf("%d %s", res.StatusCode, trim([]byte(res.Body))))
	}
	replied := func(want string) func(events.APIGatewayProxyResponse) error {
		return func(r events.APIGatewayProxyResponse) error {
			var reply struct{ Type string }
			if r.StatusCode != 200 || json.Unmarshal([]byte(r.Body), &reply) != nil || reply.Type != want {
				return fmt.Errorf("got %d %s, want a %q reply", r.StatusCode, r.Body, want)
			}
			return nil
		}
	}
	ok := func(r events.APIGatewayProxyResponse) error {
		if r.StatusCode != 200 {
			return fmt.Errorf("status %d %s", r.StatusCode, r.Body)
		}
		return nil
	}
	for _, conn := range []string{"smokeA=", "goneB="} {
		socket("$connect "+conn, "CONNECT", "$connect", conn, "", ok)
		socket("subscribe "+conn, "MESSAGE", "subscribe", conn, `{"action":"subscribe","game":"`+gid+`"}`, replied("subscribed"))
	}
	socket("$default (bad action)", "MESSAGE", "$default", "smokeA=", `{"action":"watch","game":"`+gid+`"}`, replied("error"))

	rec, err := s.store.Get(ctx, store.GamePK(gid), store.GameSK)
	if err != nil {
		s.fail("LiveFanout  stream event", "read the game item: "+err.Error())
		return
	}
	var out events.DynamoDBEventResponse
	err = s.invokeRaw(ctx, "LiveFanout", events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{streamRecord(rec, 1)}}, &out)
	if err == nil && len(out.BatchItemFailures) > 0 {
		err = fmt.Errorf("reported failures %+v", out.BatchItemFailures)
	}
	if err == nil {
		err = s.checkPushed(ctx, gid)
	}
	if err != nil {
		s.fail("LiveFanout  DynamoDB stream event → posts", err.Error())
		s.failedFns["LiveFanout"] = true
	} else {
		s.pass("LiveFanout  DynamoDB stream event → posts", "game message to smokeA=, goneB= (410) removed")
	}
	socket("$disconnect smokeA=", "DISCONNECT", "$disconnect", "smokeA=", "", ok)
	if _, err := s.store.Get(ctx, store.ConnectionPK("smokeA="), store.ConnectionSK); !errors.Is(err, store.ErrNotFound) {
		s.fail("Live        $disconnect removes the connection", fmt.Sprint(err))
	} else {
		s.pass("Live        $disconnect removes the connection", "connection smokeA= gone")
	}
}

func (s *smoke) checkPushed(ctx context.Context, gid string) error {
	if s.mgmt.unsigned > 0 {
		return fmt.Errorf("%d posts without a SigV4 execute-api signature", s.mgmt.unsigned)
	}
	posts := s.mgmt.sent("smokeA=")
	if len(posts) != 1 {
		return fmt.Errorf("smokeA= was sent %d messages, want 1", len(posts))
	}
	var m struct {
		Type       string
		ServerTime int64
		Game       struct {
			ID  string
			Ply int
		}
	}
	if err := json.Unmarshal(posts[0], &m); err != nil || m.Type != "game" || m.ServerTime == 0 || m.Game.ID != gid || m.Game.Ply != 1 {
		return fmt.Errorf("smokeA= got %s, want the game message of %s at ply 1", trim(posts[0]), gid)
	}
	if _, err := s.store.Get(ctx, store.ConnectionPK("goneB="), store.ConnectionSK); !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("the gone connection goneB= is still stored (%v)", err)
	}
	if _, err := s.store.Get(ctx, store.SubscriptionPK(store.GamePK(gid)), store.SubscriptionSK("goneB=")); !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("the gone connection's subscription is still stored (%v)", err)
	}
	return nil
}
