// Command live is the Live Lambda function: it answers the WebSocket API's
// routes ($connect, $disconnect, subscribe, unsubscribe, $default), keeping
// connections and subscriptions in the table (see shared/live).
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/xqtour/xqtour/shared/live"
	"github.com/xqtour/xqtour/shared/store"
)

func main() {
	st, err := store.Open(context.Background(), store.ConfigFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	hub := live.New(st, nil, live.WithOrigins(live.Origins(os.Getenv("LIVE_ORIGINS"))))
	lambda.Start(hub.Socket)
}
