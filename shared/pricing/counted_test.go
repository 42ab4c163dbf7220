package pricing

import (
	"math"
	"testing"
)

// TestInvocation checks one request's billing (milliseconds rounded up, at
// the memory size) and that its counters read back as they were written.
func TestInvocation(t *testing.T) {
	u := Invocation(12.2, 256, 1.5, 2, 3)
	want := Counted{Requests: 1, LambdaMs: 13, LambdaMBMs: 13 * 256, ReadUnits: 1.5, WriteUnits: 2, DynamoDBRequests: 3}
	if u != want {
		t.Fatalf("Invocation = %+v, want %+v", u, want)
	}
	u.Add(Counted{Requests: 1, ReadUnits: 0.5})
	if u.Requests != 2 || u.ReadUnits != 2 {
		t.Fatalf("after Add: %+v", u)
	}
	if got := CountedFrom(u.Counters()); got != u {
		t.Fatalf("CountedFrom(Counters()) = %+v, want %+v", got, u)
	}
	if c := (Counted{ReadUnits: 1}).Counters(); len(c) != 1 || c["readUnits"] != 1 {
		t.Fatalf("Counters of one read unit = %v, want only readUnits", c)
	}
}

// TestUsageCost prices counted usage as the usage route shows it.
func TestUsageCost(t *testing.T) {
	u := Counted{Requests: 1e6, LambdaMBMs: 1024 * 1000 * 100, ReadUnits: 1e6, WriteUnits: 1e6}
	c := OnDemand.Cost(u.Usage()).Rounded()
	want := Cost{APIGateway: 1, Lambda: Round6(0.2 + 100*OnDemand.LambdaGBSecond), DynamoDB: 0.75}
	want.Total = Round6(1 + 0.2 + 100*OnDemand.LambdaGBSecond + 0.75)
	if math.Abs(c.Total-want.Total) > 1e-9 || c.APIGateway != want.APIGateway || c.Lambda != want.Lambda || c.DynamoDB != want.DynamoDB {
		t.Fatalf("cost %+v, want %+v", c, want)
	}
}
