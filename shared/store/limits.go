package store

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB's limits on one write, as the store keeps to them: a transaction
// holds at most MaxTransactItems actions whose items are at most
// MaxTransactBytes in all. Writes of more items are split by the caller
// (CreateItems, the organiser's lineup draw) into transactions within both;
// the embedded server refuses what exceeds them as DynamoDB does.
const (
	// MaxTransactItems is how many actions one TransactWriteItems may hold.
	MaxTransactItems = 100
	// MaxTransactBytes is the aggregate size of one transaction's items: 4 MB.
	MaxTransactBytes = 4 << 20
)

// transactSize is a transaction's aggregate size as DynamoDB counts it: a
// Put's item, the key of every other action.
func transactSize(items []types.TransactWriteItem) int {
	n := 0
	for _, it := range items {
		switch {
		case it.Put != nil:
			n += ItemSize(it.Put.Item)
		case it.Update != nil:
			n += ItemSize(it.Update.Key)
		case it.Delete != nil:
			n += ItemSize(it.Delete.Key)
		case it.ConditionCheck != nil:
			n += ItemSize(it.ConditionCheck.Key)
		}
	}
	return n
}

// checkTransact refuses, before sending it, a transaction DynamoDB would
// refuse for its size, naming the limit: a caller's fault, not the client's.
func checkTransact(items []types.TransactWriteItem) error {
	if len(items) > MaxTransactItems {
		return fmt.Errorf("store: transaction of %d items exceeds DynamoDB's %d", len(items), MaxTransactItems)
	}
	if size := transactSize(items); size > MaxTransactBytes {
		return fmt.Errorf("store: transaction of %d bytes exceeds DynamoDB's 4 MB", size)
	}
	return nil
}

// transactChunks splits items into runs that each fit one transaction.
func transactChunks(items []*Item) [][]*Item {
	var (
		out   [][]*Item
		start int
		size  int
	)
	for i, it := range items {
		n := ItemSize(it.attrs)
		if i > start && (i-start == MaxTransactItems || size+n > MaxTransactBytes) {
			out = append(out, items[start:i])
			start, size = i, 0
		}
		size += n
	}
	if start < len(items) {
		out = append(out, items[start:])
	}
	return out
}
