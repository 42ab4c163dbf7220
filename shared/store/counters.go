package store

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CounterTTL is how long a counters item outlives its last addition before
// DynamoDB's TTL may delete it: each AddCounters pushes it back.
const CounterTTL = 400 * 24 * time.Hour

// AddCounters adds each delta to the number attribute of that name on the
// item pk/sk, creating the item (of the given kind) and any missing
// attribute at zero, in one atomic UpdateItem (ADD): concurrent additions
// from several processes all count, and no read is needed. Counter items are
// never read by Get or Query's callers as records; Counters reads them.
func (s *Store) AddCounters(ctx context.Context, pk, sk, kind string, deltas map[string]float64, now time.Time) error {
	if len(deltas) == 0 {
		return nil
	}
	names := map[string]string{"#kind": "kind", "#ttl": "ttl"}
	values := map[string]types.AttributeValue{
		":kind": &types.AttributeValueMemberS{Value: kind},
		":ttl":  &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(CounterTTL).Unix(), 10)},
	}
	expr := "SET #kind = :kind, #ttl = :ttl ADD "
	for i, name := range slices.Sorted(maps.Keys(deltas)) {
		if i > 0 {
			expr += ", "
		}
		n, v := fmt.Sprintf("#c%d", i), fmt.Sprintf(":c%d", i)
		names[n] = name
		values[v] = &types.AttributeValueMemberN{Value: strconv.FormatFloat(deltas[name], 'f', -1, 64)}
		expr += n + " " + v
	}
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 &s.table,
		Key:                       key(pk, sk),
		UpdateExpression:          aws.String(expr),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
	})
	return wrap("add counters "+pk+"/"+sk, err)
}

// Counters reads the number attributes of a counters item (strongly
// consistent); a missing item has none, which is not an error.
func (s *Store) Counters(ctx context.Context, pk, sk string) (map[string]float64, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.table, Key: key(pk, sk), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, wrap("get "+pk+"/"+sk, err)
	}
	c := map[string]float64{}
	for name, v := range out.Item {
		n, ok := v.(*types.AttributeValueMemberN)
		if !ok || name == "ttl" {
			continue
		}
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil {
			return nil, fmt.Errorf("store: counter %s of %s/%s: %w", name, pk, sk, err)
		}
		c[name] = f
	}
	return c, nil
}
