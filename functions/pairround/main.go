// Command pairround is the PairRound Lambda function: it serves the routes
// that httpapi.Routes assigns to PairRound, behind an HTTP API (payload 2.0),
// and runs the pairing jobs of big events' rounds, which it hands to itself
// as asynchronous invocations (InvocationType Event) carrying the job: the
// request answers 202 at once, the job has the function's whole timeout,
// and Lambda retries an invocation that failed (template.yaml's
// PairRoundJobs).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	awslambda "github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/store"
)

// jobEvent is the payload of a pairing job's invocation; an HTTP API
// event never has its field.
type jobEvent struct {
	PairJob *struct {
		TID   string `json:"tid"`
		Round int    `json:"round"`
	} `json:"pairJob"`
}

func main() {
	ctx := context.Background()
	st, err := store.Open(ctx, store.ConfigFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal(err)
	}
	self := os.Getenv("AWS_LAMBDA_FUNCTION_NAME")
	invoker := awslambda.NewFromConfig(cfg)
	start := func(ctx context.Context, tid string, n int) error {
		payload, _ := json.Marshal(map[string]any{"pairJob": map[string]any{"tid": tid, "round": n}})
		_, err := invoker.Invoke(ctx, &awslambda.InvokeInput{FunctionName: aws.String(self), InvocationType: types.InvocationTypeEvent, Payload: payload})
		return err
	}
	api := httpapi.New(st, append(httpapi.EnvOptions(), httpapi.WithPairJobStarter(start))...)
	proxy := httpadapter.NewV2(api.FunctionHandler(httpapi.FnPairRound))
	lambda.Start(func(ctx context.Context, raw json.RawMessage) (any, error) {
		var job jobEvent
		if err := json.Unmarshal(raw, &job); err == nil && job.PairJob != nil {
			// An error fails the invocation, which Lambda retries: the job
			// reruns from its item and pairs the same round.
			return nil, api.RunPairJob(ctx, job.PairJob.TID, job.PairJob.Round)
		}
		var req events.APIGatewayV2HTTPRequest
		if err := json.Unmarshal(raw, &req); err != nil {
			return nil, fmt.Errorf("pairround: neither an HTTP API event nor a pairing job: %w", err)
		}
		return proxy.ProxyWithContext(ctx, req)
	})
}
