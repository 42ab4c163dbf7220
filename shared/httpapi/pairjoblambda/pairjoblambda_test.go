package pairjoblambda

import (
	"encoding/json"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// The payload the starter sends is the job the handler runs, and an HTTP
// API event is never taken for a job (it is served as a request).
func TestJobPayload(t *testing.T) {
	body, err := payload("tabc", 4)
	if err != nil {
		t.Fatal(err)
	}
	if string(body) != `{"pairJob":{"tid":"tabc","round":4}}` {
		t.Errorf("payload %s", body)
	}
	j, ok := jobOf(body)
	if !ok || j.TID != "tabc" || j.Round != 4 {
		t.Errorf("jobOf(%s) = %+v, %v", body, j, ok)
	}
	req, err := json.Marshal(events.APIGatewayV2HTTPRequest{RawPath: "/tournaments/tabc/rounds", RequestContext: events.APIGatewayV2HTTPRequestContext{HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST"}}})
	if err != nil {
		t.Fatal(err)
	}
	if j, ok := jobOf(req); ok {
		t.Errorf("an HTTP API event read as job %+v", j)
	}
}
