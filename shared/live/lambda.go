package live

import (
	"context"
	"net/http"
	"strings"

	"github.com/aws/aws-lambda-go/events"

	"github.com/xqtour/xqtour/shared/store"
)

// Socket answers API Gateway's WebSocket routes: $connect (the origin policy,
// then the connection item), $disconnect, and every message (subscribe,
// unsubscribe, $default), whose reply API Gateway sends back to the client
// through the route's response.
func (h *Hub) Socket(ctx context.Context, req events.APIGatewayWebsocketProxyRequest) (events.APIGatewayProxyResponse, error) {
	id := req.RequestContext.ConnectionID
	if id == "" {
		return events.APIGatewayProxyResponse{StatusCode: http.StatusBadRequest, Body: "no connection id"}, nil
	}
	switch req.RequestContext.EventType {
	case "CONNECT":
		if !OriginAllowed(header(req.Headers, "Origin"), req.RequestContext.DomainName, h.origins) {
			return events.APIGatewayProxyResponse{StatusCode: http.StatusForbidden, Body: "origin not allowed"}, nil
		}
		if err := h.Connect(ctx, id); err != nil {
			return events.APIGatewayProxyResponse{}, err
		}
		return events.APIGatewayProxyResponse{StatusCode: http.StatusOK}, nil
	case "DISCONNECT":
		if err := h.Disconnect(ctx, id); err != nil {
			return events.APIGatewayProxyResponse{}, err
		}
		return events.APIGatewayProxyResponse{StatusCode: http.StatusOK}, nil
	}
	body, err := h.Handle(ctx, id, []byte(req.Body))
	if err != nil {
		return events.APIGatewayProxyResponse{}, err
	}
	return events.APIGatewayProxyResponse{StatusCode: http.StatusOK, Body: string(body)}, nil
}

func header(hs map[string]string, name string) string {
	for k, v := range hs {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// Stream is the fan-out's Lambda handler for the table's DynamoDB Stream. A
// record the store could not serve is reported as the batch's first failure
// (ReportBatchItemFailures), so Lambda retries from it.
func (h *Hub) Stream(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	changes := make([]store.Change, 0, len(ev.Records))
	for _, r := range ev.Records {
		c, err := store.StreamChange(r)
		if err != nil {
			h.log.Error("live: stream record", "event", r.EventID, "err", err.Error())
		}
		changes = append(changes, c)
	}
	var out events.DynamoDBEventResponse
	i, err := h.Fanout(ctx, changes)
	if err != nil {
		h.log.Error("live: fan-out", "sequence", ev.Records[i].Change.SequenceNumber, "err", err.Error())
		out.BatchItemFailures = []events.DynamoDBBatchItemFailure{{ItemIdentifier: ev.Records[i].Change.SequenceNumber}}
	}
	return out, nil
}
