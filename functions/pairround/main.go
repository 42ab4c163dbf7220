// Command pairround is the PairRound Lambda function: it serves the routes
// that httpapi.Routes assigns to PairRound, behind an HTTP API (payload 2.0).
package main

import (
	"context"
	"log"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/store"
)

func main() {
	st, err := store.Open(context.Background(), store.ConfigFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	h := httpapi.New(st, httpapi.EnvOptions()...).FunctionHandler(httpapi.FnPairRound)
	lambda.Start(httpadapter.NewV2(h).ProxyWithContext)
}
