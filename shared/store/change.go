package store

import (
	"context"

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
