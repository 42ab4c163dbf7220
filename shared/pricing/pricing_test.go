package pricing

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// A million of each billed unit costs the list price per million.
func TestCost_PerMillion(t *testing.T) {
	c := OnDemand.Cost(Usage{HTTPRequests: 1e6, ReadUnits: 1e6, WriteUnits: 1e6, LambdaMBMs: 1024 * 1000 * 1e6, StreamReads: 1e5, StorageGBMonths: 2})
	if !near(c.APIGateway, 1.00) {
		t.Errorf("API Gateway %v, want 1.00", c.APIGateway)
	}
	if !near(c.DynamoDB, 0.125+0.625) {
		t.Errorf("DynamoDB %v, want 0.75", c.DynamoDB)
	}
	// 1e6 GB-s plus a million invocations.
	if !near(c.Lambda, 13.3334+0.20) {
		t.Errorf("Lambda %v, want 13.5334", c.Lambda)
	}
	if !near(c.Streams, 0.02) || !near(c.Storage, 0.50) {
		t.Errorf("streams %v, storage %v; want 0.02, 0.50", c.Streams, c.Storage)
	}
	if !near(c.Total, c.APIGateway+c.Lambda+c.DynamoDB+c.Streams+c.Storage) {
		t.Errorf("total %v is not the sum of its parts", c.Total)
	}
	ws := OnDemand.Cost(Usage{WebSocketMessages: 1e6, WebSocketConnectionMinutes: 1e6})
	if !near(ws.APIGateway, 1.25) {
		t.Errorf("WebSocket %v, want 1.25", ws.APIGateway)
	}
}

func TestGBSeconds(t *testing.T) {
	if got := GBSeconds(256 * 4000); got != 1 {
		t.Errorf("4 s at 256 MB = %v GB-s, want 1", got)
	}
	if got := Round6(0.12345678); got != 0.123457 {
		t.Errorf("Round6 = %v", got)
	}
}
