package pricing

import "math"

// Counted is an event's usage as the usage counters hold it: what each
// request used, added up. Its names are the usage item's attributes
// (Counters).
type Counted struct {
	// Requests is HTTP requests, each one invocation.
	Requests float64
	// LambdaMs is billed milliseconds; LambdaMBMs each invocation's
	// milliseconds times the function's memory in MB.
	LambdaMs, LambdaMBMs float64
	// ReadUnits and WriteUnits are DynamoDB request units; DynamoDBRequests
	// the calls that used them.
	ReadUnits, WriteUnits, DynamoDBRequests float64
}

// Invocation is one request's usage: Lambda bills each invocation's
// duration rounded up to the millisecond, at the function's memory size
// (memoryMB); reads, writes and calls are its DynamoDB units and requests.
func Invocation(ms float64, memoryMB int, reads, writes float64, calls int) Counted {
	billed := math.Ceil(ms)
	return Counted{Requests: 1, LambdaMs: billed, LambdaMBMs: billed * float64(memoryMB),
		ReadUnits: reads, WriteUnits: writes, DynamoDBRequests: float64(calls)}
}

// Add adds v to u.
func (u *Counted) Add(v Counted) {
	u.Requests += v.Requests
	u.LambdaMs += v.LambdaMs
	u.LambdaMBMs += v.LambdaMBMs
	u.ReadUnits += v.ReadUnits
	u.WriteUnits += v.WriteUnits
	u.DynamoDBRequests += v.DynamoDBRequests
}

// Counters is u as the usage item's counters, by attribute name; a zero
// is left out (an atomic ADD of nothing is no write).
func (u Counted) Counters() map[string]float64 {
	c := map[string]float64{
		"requests": u.Requests, "lambdaMs": u.LambdaMs, "lambdaMBMs": u.LambdaMBMs,
		"readUnits": u.ReadUnits, "writeUnits": u.WriteUnits, "dynamodbRequests": u.DynamoDBRequests,
	}
	for k, v := range c {
		if v == 0 {
			delete(c, k)
		}
	}
	return c
}

// CountedFrom reads the usage item's counters (Counters); a missing one is 0.
func CountedFrom(c map[string]float64) Counted {
	return Counted{Requests: c["requests"], LambdaMs: c["lambdaMs"], LambdaMBMs: c["lambdaMBMs"],
		ReadUnits: c["readUnits"], WriteUnits: c["writeUnits"], DynamoDBRequests: c["dynamodbRequests"]}
}

// Usage is what u bills: its HTTP requests (each one invocation), Lambda
// MB-ms and DynamoDB units.
func (u Counted) Usage() Usage {
	return Usage{HTTPRequests: u.Requests, LambdaMBMs: u.LambdaMBMs, ReadUnits: u.ReadUnits, WriteUnits: u.WriteUnits}
}

// Rounded is c with every amount rounded to a millionth of a dollar (Round6), for display.
func (c Cost) Rounded() Cost {
	return Cost{APIGateway: Round6(c.APIGateway), Lambda: Round6(c.Lambda), DynamoDB: Round6(c.DynamoDB),
		Streams: Round6(c.Streams), Storage: Round6(c.Storage), Total: Round6(c.Total)}
}
