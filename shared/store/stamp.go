package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Stamps are counters that say, cheaply, whether anything a cached
// document was built from has changed since. A StampFunc names, for each
// item written, the stamp item to advance and which of its counters: after
// every successful write (Put, Transact, TransactDelete, Delete,
// CreateItems) the store adds 1 to each counter named, in one UpdateItem per
// stamp item, if that item exists: a reader that means to depend on the
// stamp creates it first (CreateStamp), so events nobody reads keep none. A reader that read a stamp before reading the inputs of a
// document, and records the counters with it, can tell the document is still
// current by reading the stamp item alone (one small item) instead of the
// inputs.
//
// The counters advance after the write, not with it: a read racing the write
// may see the write without its counter, which only makes a document built
// then look older than it is (it is rebuilt once more), never newer. A
// counter whose update failed after the write (the process died between the
// two) is the one way a document can miss a change; callers bound that with
// an age after which a document is rebuilt regardless.
type StampFunc func(pk, sk string, created bool) (stampPK string, counters []string)

// stampTTL keeps a stamp item a year after its last change; its epoch
// (chosen when the item is created) tells documents built under an expired
// and recreated stamp from current ones.
const stampTTL = 366 * 24 * time.Hour

// StampWrites makes the store advance stamps after every write, as f says.
// Call it once, before the store is used.
func (s *Store) StampWrites(f StampFunc) { s.stamp = f }

// Stamp is a stamp item as read: its counters and the epoch that names this
// incarnation of the item.
type Stamp struct {
	Epoch    string
	Counters map[string]int64
}

// Get returns counter name's value (0 when it was never advanced).
func (s Stamp) Get(name string) int64 { return s.Counters[name] }

// ReadStamp reads the stamp item of pk, strongly consistent; a stamp never
// advanced reads as an empty Stamp.
func (s *Store) ReadStamp(ctx context.Context, pk string) (Stamp, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.table, Key: key(pk, StampSK), ConsistentRead: aws.Bool(true)})
	if err != nil {
		return Stamp{}, wrap("get "+pk+"/"+StampSK, err)
	}
	return stampFrom(out.Item), nil
}

func stampFrom(it map[string]types.AttributeValue) Stamp {
	st := Stamp{Counters: map[string]int64{}}
	for name, v := range it {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			if name == "epoch" {
				st.Epoch = v.Value
			}
		case *types.AttributeValueMemberN:
			if name == "ttl" {
				continue
			}
			if n, err := strconv.ParseInt(v.Value, 10, 64); err == nil {
				st.Counters[name] = n
			}
		}
	}
	return st
}

// written is one item a write touched, for the stamps.
type written struct {
	pk, sk  string
	created bool
}

// advance adds 1 to the counters f names for the items written. The write
// has happened: an error here is retried by the SDK and then dropped (see
// StampFunc on what bounds the consequence).
func (s *Store) advance(ctx context.Context, items []written) {
	if s.stamp == nil || len(items) == 0 {
		return
	}
	byPK := map[string]map[string]bool{}
	for _, it := range items {
		if strings.Contains(it.sk, partSuffix) {
			continue // a continuation item changes with its head
		}
		pk, names := s.stamp(it.pk, it.sk, it.created)
		if pk == "" || len(names) == 0 {
			continue
		}
		if byPK[pk] == nil {
			byPK[pk] = map[string]bool{}
		}
		for _, n := range names {
			byPK[pk][n] = true
		}
	}
	ctx = expectRefusal(context.WithoutCancel(ctx)) // the write is done; its stamp must follow
	for _, pk := range slices.Sorted(maps.Keys(byPK)) {
		names := slices.Sorted(maps.Keys(byPK[pk]))
		attrNames := map[string]string{"#t": "ttl"}
		vals := map[string]types.AttributeValue{
			":one": &types.AttributeValueMemberN{Value: "1"},
			":t":   &types.AttributeValueMemberN{Value: strconv.FormatInt(time.Now().Add(stampTTL).Unix(), 10)},
		}
		adds := make([]string, len(names))
		for i, n := range names {
			ref := fmt.Sprintf("#c%d", i)
			attrNames[ref] = n
			adds[i] = ref + " :one"
		}
		// Only a stamp some reader created (CreateStamp) advances: an event
		// nobody has read a view of keeps no stamp item. The refusal is
		// billed, but it is no lost race (expectRefusal).
		_, _ = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 &s.table,
			Key:                       key(pk, StampSK),
			UpdateExpression:          aws.String("ADD " + strings.Join(adds, ", ") + " SET #t = :t"),
			ConditionExpression:       aws.String("attribute_exists(PK)"),
			ExpressionAttributeNames:  attrNames,
			ExpressionAttributeValues: vals,
		})
	}
}

// CreateStamp gives the stamp item of pk an epoch, creating the item
// unless it exists with one, and returns the stamp as stored. Writes advance
// only an existing stamp, so a reader creates it before it reads what it
// will depend on: every write after that is counted, every write before it
// is in what the reader reads. (An item restored from a snapshot, which
// keeps no epoch, gets a fresh one here, so nothing built before counts.)
func (s *Store) CreateStamp(ctx context.Context, pk string) (Stamp, error) {
	out, err := s.db.UpdateItem(expectRefusal(ctx), &dynamodb.UpdateItemInput{
		TableName:                &s.table,
		Key:                      key(pk, StampSK),
		UpdateExpression:         aws.String("SET #e = :e, #k = :k, #t = :t"),
		ConditionExpression:      aws.String("attribute_not_exists(#e)"),
		ExpressionAttributeNames: map[string]string{"#e": "epoch", "#k": "kind", "#t": "ttl"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":e": &types.AttributeValueMemberS{Value: newEpoch()},
			":k": &types.AttributeValueMemberS{Value: KindStamp},
			":t": &types.AttributeValueMemberN{Value: strconv.FormatInt(time.Now().Add(stampTTL).Unix(), 10)},
		},
		ReturnValues: types.ReturnValueAllNew,
	})
	if err = wrap("create stamp "+pk, err); errors.Is(err, ErrConflict) {
		return s.ReadStamp(ctx, pk) // another reader gave it its epoch
	}
	if err != nil {
		return Stamp{}, err
	}
	return stampFrom(out.Attributes), nil
}

func newEpoch() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// GetWithStamp reads the items under keys and the stamp item of stampPK in
// one BatchGetItem (strongly consistent): a cached document, what it depends
// on and the counters that say whether it is current, in one round trip.
// Missing items are absent from the map.
func (s *Store) GetWithStamp(ctx context.Context, stampPK string, keys ...Key) (map[Key]*Record, Stamp, error) {
	req := types.KeysAndAttributes{ConsistentRead: aws.Bool(true), Keys: []map[string]types.AttributeValue{key(stampPK, StampSK)}}
	for _, k := range keys {
		req.Keys = append(req.Keys, key(k.PK, k.SK))
	}
	out := make(map[Key]*Record, len(keys))
	st := Stamp{Counters: map[string]int64{}}
	items := map[string]types.KeysAndAttributes{s.table: req}
	for len(items) > 0 {
		res, err := s.db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: items})
		if err != nil {
			return nil, Stamp{}, wrap("batch get", err)
		}
		for _, it := range res.Responses[s.table] {
			r, err := fromItem(it)
			if err != nil {
				return nil, Stamp{}, err
			}
			if r.PK == stampPK && r.SK == StampSK {
				st = stampFrom(it)
				continue
			}
			if err := s.join(ctx, r); err != nil {
				return nil, Stamp{}, err
			}
			out[Key{r.PK, r.SK}] = r
		}
		items = res.UnprocessedKeys
	}
	return out, st, nil
}
