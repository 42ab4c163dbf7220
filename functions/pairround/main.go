// Command pairround is the PairRound Lambda function: it serves the routes
// that httpapi.Routes assigns to PairRound, behind an HTTP API (payload 2.0),
// and runs the pairing jobs of big events' rounds it hands to itself
// (shared/httpapi/pairjoblambda).
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/config"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/pairjoblambda"
	"github.com/xqtour/xqtour/shared/store"
)

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
	start := pairjoblambda.Starter(cfg, os.Getenv("AWS_LAMBDA_FUNCTION_NAME"))
	api := httpapi.New(st, append(httpapi.EnvOptions(), httpapi.WithPairJobStarter(start))...)
	lambda.Start(pairjoblambda.Handler(api, api.FunctionHandler(httpapi.FnPairRound)))
}
