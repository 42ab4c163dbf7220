// Command duework is the DueWork Lambda function: an EventBridge schedule
// invokes it every minute, and it does the work due on events' rounds by
// then (httpapi.API.RunDue, shared/service's due.go): a team round's
// missing lineups drawn at its deadline (T-3), a knockout's next games
// that the game command which ended a game could not make (S-3). It serves
// no HTTP route. Its cost at rest is 43,200 invocations and as many
// one-item Queries a month (README, "Work due").
package main

import (
	"context"
	"log"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
)

func main() {
	ctx := context.Background()
	st, err := store.Open(ctx, store.ConfigFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	api := httpapi.New(st, httpapi.EnvOptions()...)
	// The schedule's event says only that the minute came: nothing of it is read.
	lambda.Start(func(ctx context.Context) (service.DueRun, error) { return api.RunDue(ctx) })
}
