// Package pairjoblambda runs pairing jobs on Lambda: the PairRound function
// hands a big event's round to itself as an asynchronous invocation
// (InvocationType Event) carrying the job, so the request answers 202 at
// once and the job has the function's whole timeout, and Lambda retries an
// invocation that failed (template.yaml's PairRoundJobs). It is its own
// package so that only that function links the Lambda client.
package pairjoblambda

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	awslambda "github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/xqtour/xqtour/shared/httpapi"
)

// job is the payload of a pairing job's invocation; an HTTP API event
// never has its field.
type job struct {
	PairJob *jobRef `json:"pairJob"`
}

// jobRef names the job: round Round of event TID.
type jobRef struct {
	TID   string `json:"tid"`
	Round int    `json:"round"`
}

// payload is the invocation payload of round n's job of event tid.
func payload(tid string, n int) ([]byte, error) {
	return json.Marshal(job{PairJob: &jobRef{TID: tid, Round: n}})
}

// jobOf is the job raw carries, if it is a job's payload.
func jobOf(raw json.RawMessage) (*jobRef, bool) {
	var j job
	if err := json.Unmarshal(raw, &j); err != nil || j.PairJob == nil {
		return nil, false
	}
	return j.PairJob, true
}

// Starter starts a job by invoking function (the running function's own
// name) asynchronously with the job as its payload.
func Starter(cfg aws.Config, function string) httpapi.PairJobStarter {
	invoker := awslambda.NewFromConfig(cfg)
	return func(ctx context.Context, tid string, n int) error {
		body, err := payload(tid, n)
		if err != nil {
			return err
		}
		_, err = invoker.Invoke(ctx, &awslambda.InvokeInput{FunctionName: aws.String(function), InvocationType: types.InvocationTypeEvent, Payload: body})
		return err
	}
}

// Handler is the function's Lambda handler: a job's invocation runs the
// job on api, any other event is an HTTP API (payload 2.0) request for h.
func Handler(api *httpapi.API, h http.Handler) func(context.Context, json.RawMessage) (any, error) {
	proxy := httpadapter.NewV2(h)
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		if j, ok := jobOf(raw); ok {
			// An error fails the invocation, which Lambda retries: the job
			// reruns from its item and pairs the same round.
			return nil, api.RunPairJob(ctx, j.TID, j.Round)
		}
		var req events.APIGatewayV2HTTPRequest
		if err := json.Unmarshal(raw, &req); err != nil {
			return nil, fmt.Errorf("pairround: neither an HTTP API event nor a pairing job: %w", err)
		}
		return proxy.ProxyWithContext(ctx, req)
	}
}
