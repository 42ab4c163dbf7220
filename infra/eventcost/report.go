package main

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/xqtour/xqtour/shared/pricing"
)

// usageFigures is GET /tournaments/{tid}/usage's answer.
type usageFigures struct {
	Requests         float64 `json:"requests"`
	LambdaMs         float64 `json:"lambdaMs"`
	LambdaGBSeconds  float64 `json:"lambdaGbSeconds"`
	ReadUnits        float64 `json:"readUnits"`
	WriteUnits       float64 `json:"writeUnits"`
	DynamoDBRequests float64 `json:"dynamodbRequests"`
}

type report struct {
	cfg            config
	games, moves   int
	refused        int
	clientRequests int
	byRoute        map[string]int
	usage          usageFigures
	items          int
	storageBytes   int
}

// cost prices the event: its usage, and its storage for a month.
func (r *report) cost() pricing.Cost {
	u := r.usage
	return pricing.OnDemand.Cost(pricing.Usage{
		HTTPRequests: u.Requests, LambdaMBMs: u.LambdaGBSeconds * 1024 * 1000,
		ReadUnits: u.ReadUnits, WriteUnits: u.WriteUnits,
		StorageGBMonths: float64(r.storageBytes) / (1 << 30),
	})
}

func (r *report) print(w io.Writer) {
	u, c := r.usage, r.cost()
	fmt.Fprintf(w, "event: %d players, %d rounds, %d games, %d moves entered (%d refused and replaced), standings read after each round\n",
		r.cfg.players, r.cfg.rounds, r.games, r.moves, r.refused)
	fmt.Fprintf(w, "requests sent: %d; counted by the usage route: %.0f\n", r.clientRequests, u.Requests)
	for _, route := range slices.Sorted(maps.Keys(r.byRoute)) {
		fmt.Fprintf(w, "  %-45s %7d\n", route, r.byRoute[route])
	}
	fmt.Fprintf(w, "DynamoDB: %.1f read units, %.1f write units, %.0f calls (%.2f RRU and %.2f WRU per move)\n",
		u.ReadUnits, u.WriteUnits, u.DynamoDBRequests, u.ReadUnits/float64(max(r.moves, 1)), u.WriteUnits/float64(max(r.moves, 1)))
	fmt.Fprintf(w, "Lambda: %.0f handler ms, %.3f GB-s (at each function's memory size in template.yaml)\n", u.LambdaMs, u.LambdaGBSeconds)
	fmt.Fprintf(w, "storage left: %d items, %.2f MB\n", r.items, float64(r.storageBytes)/(1<<20))
	fmt.Fprintf(w, "cost (USD): API Gateway %.4f, Lambda %.4f, DynamoDB %.4f, storage for a month %.6f; total %.4f\n",
		c.APIGateway, c.Lambda, c.DynamoDB, c.Storage, c.Total)
	fmt.Fprintf(w, "prices: %s\n", pricing.Source)
}
