// Command livefanout is the LiveFanout Lambda function: fed by the table's
// DynamoDB Stream (filtered to game, round, result, player and standings
// items), it posts each change to the subscribers of that game or event
// through API Gateway's Management API (see shared/live).
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/xqtour/xqtour/shared/live"
	"github.com/xqtour/xqtour/shared/live/apigw"
	"github.com/xqtour/xqtour/shared/store"
)

func main() {
	ctx := context.Background()
	st, err := store.Open(ctx, store.ConfigFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	api, err := apigw.NewManagementAPI(ctx, os.Getenv("WEBSOCKET_URL"))
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(live.New(st, api).Stream)
}
