package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A mirror copies an event's items from one table to another as they
// change (shared/service/mirror). The sender reads each changed item
// exactly as stored (ItemsOf), version and continuation parts included; the
// copy writes them as they are (ApplyItems), so every version, token hash
// and part on the copy is the source's.

// ItemsOf reads the items under keys exactly as stored, each with its
// continuation parts (head first), strongly consistent; a key with no item
// is absent from the map. A head read with another write's parts is read
// again, as Items does.
func (s *Store) ItemsOf(ctx context.Context, keys ...Key) (map[Key][]*Item, error) {
	out := make(map[Key][]*Item, len(keys))
	for start := 0; start < len(keys); start += 100 {
		req := types.KeysAndAttributes{ConsistentRead: aws.Bool(true)}
		for _, k := range keys[start:min(start+100, len(keys))] {
			req.Keys = append(req.Keys, key(k.PK, k.SK))
		}
		pending := map[string]types.KeysAndAttributes{s.table: req}
		for len(pending) > 0 {
			res, err := s.db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
			if err != nil {
				return nil, wrap("batch get", err)
			}
			for _, attrs := range res.Responses[s.table] {
				head := newItem(attrs)
				items, err := s.withParts(ctx, head)
				if errors.Is(err, ErrNotFound) {
					continue
				} else if err != nil {
					return nil, err
				}
				out[Key{head.PK, head.SK}] = items
			}
			pending = res.UnprocessedKeys
		}
	}
	return out, nil
}

// withParts returns head and its continuation items, reading both again
// when they are of two writes.
func (s *Store) withParts(ctx context.Context, head *Item) ([]*Item, error) {
	for attempt := 1; ; attempt++ {
		r, err := fromItem(head.attrs)
		if err != nil {
			return nil, err
		}
		if r.Parts == 0 {
			return []*Item{head}, nil
		}
		items := []*Item{head}
		p := dynamodb.NewQueryPaginator(s.db, &dynamodb.QueryInput{
			TableName: &s.table, ConsistentRead: aws.Bool(true),
			KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :p)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":pk": &types.AttributeValueMemberS{Value: head.PK}, ":p": &types.AttributeValueMemberS{Value: partsPrefix(r)}},
		})
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				return nil, wrap("query parts of "+head.PK+"/"+head.SK, err)
			}
			for _, it := range page.Items {
				if part := newItem(it); ownPart(r, part.SK) { // not another build's
					items = append(items, part)
				}
			}
		}
		if err := tornItems(items); !errors.Is(err, errTorn) {
			return items, err
		} else if attempt == tornReads {
			return nil, fmt.Errorf("store: read %s/%s %d times: %w", head.PK, head.SK, tornReads, err)
		}
		got, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.table, Key: key(head.PK, head.SK), ConsistentRead: aws.Bool(true)})
		if err != nil {
			return nil, wrap("get "+head.PK+"/"+head.SK, err)
		}
		if got.Item == nil {
			return nil, ErrNotFound
		}
		head = newItem(got.Item)
	}
}

// ApplyItems writes a mirrored change to this table: puts (heads and their
// parts, as ItemsOf read them on the source) exactly as they are, removes
// the items under deletes and every part a head no longer has, writes
// marks unconditionally, and state under Put's condition (its version as
// read), advancing it. Everything goes in as few transactions as DynamoDB's
// limits allow, state in the last: a change that fits one transaction
// (any write the source made in one does, with room for the state) lands
// whole or not at all, and a change sent again rewrites the same items.
func (s *Store) ApplyItems(ctx context.Context, puts []*Item, deletes []Key, marks []*Record, state *Record) error {
	heads := map[Key]int{} // the parts each head written now has
	var keys []Key
	for _, it := range puts {
		if r, err := fromItem(it.attrs); err == nil && r.Kind != KindPart {
			heads[Key{it.PK, it.SK}] = r.Parts
			keys = append(keys, Key{it.PK, it.SK})
		}
	}
	keys = append(keys, deletes...)
	old, err := s.partCounts(ctx, keys)
	if err != nil {
		return err
	}
	var items []types.TransactWriteItem
	var done []written
	for _, it := range puts {
		items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: &s.table, Item: it.attrs}})
	}
	for k, n := range heads {
		for j := n + 1; j <= old[k]; j++ {
			items = append(items, types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: key(k.PK, partSK(k.SK, j))}})
		}
		done = append(done, written{k.PK, k.SK, false})
	}
	for _, k := range deletes {
		items = append(items, types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: key(k.PK, k.SK)}})
		for j := 1; j <= old[k]; j++ {
			items = append(items, types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: key(k.PK, partSK(k.SK, j))}})
		}
		done = append(done, written{k.PK, k.SK, false})
	}
	for _, m := range marks {
		items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: &s.table, Item: m.item(m.Version + 1)}})
	}
	cond, vals := condition(state)
	last := types.TransactWriteItem{Put: &types.Put{TableName: &s.table, Item: state.item(state.Version + 1),
		ConditionExpression: aws.String(cond), ExpressionAttributeValues: vals}}
	for len(items) > 0 || last.Put != nil {
		n := 0
		for n < len(items) && n < MaxTransactItems-1 && transactSize(items[:n+1]) <= MaxTransactBytes-len(state.Doc)-1024 {
			n++
		}
		chunk := items[:n]
		items = items[n:]
		if len(items) == 0 {
			chunk = append(chunk, last)
			last.Put = nil
		}
		if err := checkTransact(chunk); err != nil {
			return err
		}
		if _, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: chunk}); err != nil {
			return wrap("apply mirrored change", err)
		}
	}
	s.advance(ctx, done)
	state.Version++
	return nil
}

// partCounts reads how many continuation parts the items under keys have now.
func (s *Store) partCounts(ctx context.Context, keys []Key) (map[Key]int, error) {
	out := map[Key]int{}
	for start := 0; start < len(keys); start += 100 {
		req := types.KeysAndAttributes{ConsistentRead: aws.Bool(true), ProjectionExpression: aws.String("PK, SK, parts")}
		seen := map[Key]bool{}
		for _, k := range keys[start:min(start+100, len(keys))] {
			if !seen[k] {
				seen[k] = true
				req.Keys = append(req.Keys, key(k.PK, k.SK))
			}
		}
		pending := map[string]types.KeysAndAttributes{s.table: req}
		for len(pending) > 0 {
			res, err := s.db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
			if err != nil {
				return nil, wrap("batch get", err)
			}
			for _, attrs := range res.Responses[s.table] {
				it := newItem(attrs)
				if v, ok := attrs["parts"].(*types.AttributeValueMemberN); ok {
					n, _ := strconv.Atoi(v.Value)
					out[Key{it.PK, it.SK}] = n
				}
			}
			pending = res.UnprocessedKeys
		}
	}
	return out, nil
}

// ItemOf is record r as an item to create, at its version (a mark
// created with an imported event).
func ItemOf(r *Record) *Item { return newItem(r.item(r.Version)) }

// HeadKey is the key of the document a continuation part belongs to (k
// itself for a head).
func HeadKey(k Key) Key {
	if i := strings.Index(k.SK, partSuffix); i >= 0 {
		k.SK = k.SK[:i]
	}
	return k
}

// IsPart reports whether the item is a continuation part of a split document.
func (it *Item) IsPart() bool { return it.Kind == KindPart }
