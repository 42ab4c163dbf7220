package store

import (
	"context"
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Change is one write to the table as the table's stream reports it (or, on
// the local stack, the embedded server's change feed): the item's key and the
// item as written, nil when the write removed it.
type Change struct {
	Key Key
	New *Record
}

// RecordOf decodes an item's attributes, as GetItem, a request body or a
// stream record's image carry them, into a Record (the document of a split
// item is only the head's part).
func RecordOf(item map[string]types.AttributeValue) (*Record, error) { return fromItem(item) }

// Replace writes r unconditionally with r.Version as it is. Only items that no
// one reads, changes and writes back use it: a live connection's
// subscriptions, which belong to that connection alone.
func (s *Store) Replace(ctx context.Context, r *Record) error {
	_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.table, Item: r.item(r.Version)})
	return wrap("replace "+r.PK+"/"+r.SK, err)
}

// StreamChange turns one record of the table's DynamoDB Stream, as Lambda
// delivers it, into a Change: its keys, and the new image when the stream
// carries one (NEW_IMAGE or NEW_AND_OLD_IMAGES) and the item was not removed.
func StreamChange(r events.DynamoDBEventRecord) (Change, error) {
	keys := streamAttributes(r.Change.Keys)
	c := Change{}
	if v, ok := keys["PK"].(*types.AttributeValueMemberS); ok {
		c.Key.PK = v.Value
	}
	if v, ok := keys["SK"].(*types.AttributeValueMemberS); ok {
		c.Key.SK = v.Value
	}
	if r.EventName == string(events.DynamoDBOperationTypeRemove) || len(r.Change.NewImage) == 0 {
		return c, nil
	}
	rec, err := RecordOf(streamAttributes(r.Change.NewImage))
	if err != nil {
		return c, fmt.Errorf("store: stream image of %s/%s: %w", c.Key.PK, c.Key.SK, err)
	}
	c.New = rec
	return c, nil
}

// streamAttributes converts a stream image's values (strings, numbers and binaries:
// all the store writes) into the SDK's.
func streamAttributes(in map[string]events.DynamoDBAttributeValue) map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(in))
	for name, v := range in {
		switch v.DataType() {
		case events.DataTypeString:
			out[name] = &types.AttributeValueMemberS{Value: v.String()}
		case events.DataTypeNumber:
			out[name] = &types.AttributeValueMemberN{Value: v.Number()}
		case events.DataTypeBinary:
			out[name] = &types.AttributeValueMemberB{Value: v.Binary()}
		}
	}
	return out
}
