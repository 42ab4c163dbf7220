// Command web is the Web Lambda function: it serves the web client's pages
// and fingerprinted assets (package web) on the routes httpapi.Routes assigns
// to Web, behind the same HTTP API (payload 2.0). It reads no table.
// WEBSOCKET_URL, when set, is the live-updates socket the pages connect to.
package main

import (
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/xqtour/xqtour/web"
)

func main() {
	h, err := web.New(web.Options{WebSocketURL: os.Getenv("WEBSOCKET_URL")})
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(httpadapter.NewV2(h).ProxyWithContext)
}
