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

// TransactChunks splits writes into runs that each fit one Transact: at most
// MaxTransactItems actions (a split document counts its parts, and the parts
// it no longer needs) and MaxTransactBytes of items. A caller that writes
// more records than one transaction holds writes each run in turn, and must
// say why a reader may see the runs one at a time.
func TransactChunks(writes []*Record) [][]*Record {
	var (
		out            [][]*Record
		start          int
		actions, bytes int
	)
	for i, r := range writes {
		parts := 0
		if len(r.Doc) > MaxPart && r.Body == nil {
			parts = (len(r.Doc) - 1) / MaxPart
		}
		a := 1 + parts + max(0, r.Parts-parts)
		if r.Body != nil || r.Build != "" { // a staged document's head alone: its parts are written apart
			a = 1
		}
		b := r.Size() + parts*r.overhead()
		if i > start && (actions+a > MaxTransactItems || bytes+b > MaxTransactBytes) {
			out = append(out, writes[start:i])
			start, actions, bytes = i, 0, 0
		}
		actions += a
		bytes += b
	}
	if start < len(writes) {
		out = append(out, writes[start:])
	}
	return out
}

// overhead is an item's size without its document: keys, kind, version, TTL.
func (r *Record) overhead() int { return r.Size() - len(r.Doc) + len(partSuffix) + 3 }
