// Package pricing is the one table of AWS prices xqtour estimates costs
// with, and the arithmetic that turns usage counts into dollars.
//
// The prices are the public on-demand list prices of the region us-east-1
// (N. Virginia), first tier, without the free tier, as published on the AWS
// pricing pages for API Gateway, Lambda and DynamoDB in 2025 (DynamoDB's
// on-demand prices after the November 2024 reduction). Other regions cost
// somewhat more; check the pricing pages before relying on a figure.
package pricing

import "math"

// Source says where the prices come from and as of when.
const Source = "AWS list prices, us-east-1, on-demand, first tier, free tier ignored; aws.amazon.com/api-gateway/pricing, /lambda/pricing, /dynamodb/pricing/on-demand, as of 2025"

// Prices are dollars per unit of what AWS bills.
type Prices struct {
	// HTTPRequest is one API Gateway HTTP API request ($1.00 per million
	// for the first 300 million a month; each 512 KB of a request counts as one).
	HTTPRequest float64
	// WebSocketMessage is one API Gateway WebSocket message ($1.00 per
	// million for the first billion; 32 KB each).
	WebSocketMessage float64
	// WebSocketConnectionMinute is one minute of one WebSocket connection ($0.25 per million).
	WebSocketConnectionMinute float64
	// LambdaGBSecond is one GB-second of an arm64 function: a function with
	// M MB of memory running t ms costs t/1000 × M/1024 of it, each
	// invocation rounded up to the millisecond.
	LambdaGBSecond float64
	// LambdaRequest is one Lambda invocation ($0.20 per million).
	LambdaRequest float64
	// ReadUnit and WriteUnit are one DynamoDB on-demand read request unit
	// ($0.125 per million) and write request unit ($0.625 per million).
	ReadUnit, WriteUnit float64
	// StreamRead is one DynamoDB Streams read request unit ($0.02 per
	// 100,000); reads by a Lambda trigger, as the live fan-out's, are free.
	StreamRead float64
	// StorageGBMonth is one GB of table storage for a month (standard table
	// class; DynamoDB adds 100 bytes of overhead to each item).
	StorageGBMonth float64
}

// OnDemand is the price table.
var OnDemand = Prices{
	HTTPRequest:               1.00 / 1e6,
	WebSocketMessage:          1.00 / 1e6,
	WebSocketConnectionMinute: 0.25 / 1e6,
	LambdaGBSecond:            0.0000133334,
	LambdaRequest:             0.20 / 1e6,
	ReadUnit:                  0.125 / 1e6,
	WriteUnit:                 0.625 / 1e6,
	StreamRead:                0.02 / 1e5,
	StorageGBMonth:            0.25,
}

// Usage is what an event (or any span of work) used.
type Usage struct {
	// HTTPRequests is API Gateway HTTP requests; each invoked a function once.
	HTTPRequests float64
	// LambdaMBMs is the sum over invocations of billed milliseconds times
	// the function's memory in MB.
	LambdaMBMs float64
	// ReadUnits and WriteUnits are DynamoDB request units.
	ReadUnits, WriteUnits float64
	// WebSocketMessages and WebSocketConnectionMinutes are the live API's.
	WebSocketMessages, WebSocketConnectionMinutes float64
	// StreamReads is DynamoDB Streams read request units not made by a Lambda trigger.
	StreamReads float64
	// StorageGBMonths is table storage over time.
	StorageGBMonths float64
}

// Cost is a Usage in dollars, by service.
type Cost struct {
	APIGateway, Lambda, DynamoDB, Streams, Storage, Total float64
}

// GBSeconds converts milliseconds at a memory size in MB to GB-seconds.
func GBSeconds(mbMs float64) float64 { return mbMs / 1024 / 1000 }

// Cost prices u.
func (p Prices) Cost(u Usage) Cost {
	c := Cost{
		APIGateway: u.HTTPRequests*p.HTTPRequest + u.WebSocketMessages*p.WebSocketMessage + u.WebSocketConnectionMinutes*p.WebSocketConnectionMinute,
		Lambda:     u.HTTPRequests*p.LambdaRequest + GBSeconds(u.LambdaMBMs)*p.LambdaGBSecond,
		DynamoDB:   u.ReadUnits*p.ReadUnit + u.WriteUnits*p.WriteUnit,
		Streams:    u.StreamReads * p.StreamRead,
		Storage:    u.StorageGBMonths * p.StorageGBMonth,
	}
	c.Total = c.APIGateway + c.Lambda + c.DynamoDB + c.Streams + c.Storage
	return c
}

// Round6 rounds a dollar amount to a millionth of a dollar, for display.
func Round6(d float64) float64 { return math.Round(d*1e6) / 1e6 }
