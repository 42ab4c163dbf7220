package store

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is one item exactly as the table holds it (version, continuation
// parts and all), for moving an event between tables. Its JSON form is
// DynamoDB JSON: {"PK":{"S":"T#…"},"ver":{"N":"3"},"doc":{"B":"<base64>"},…}.
type Item struct {
	// PK, SK and Kind are read from the attributes, for the caller to check.
	PK, SK, Kind string
	attrs        map[string]types.AttributeValue
}

// Items returns every item of partition pk as stored: a split document's
// parts are separate items, as they must be written back. A partition read
// while a split document was rewritten (a head and another write's parts)
// is read again, as Get does (parts.go): an export never carries a torn
// document to the table it is imported into. Parts of no head's build
// (staged by a write that lost its race) are left out.
func (s *Store) Items(ctx context.Context, pk string) ([]*Item, error) {
	for attempt := 1; ; attempt++ {
		items, err := s.items(ctx, pk)
		if err != nil {
			return nil, err
		}
		items = ownItems(items)
		err = tornItems(items)
		if !errors.Is(err, errTorn) {
			return items, err
		}
		if attempt == tornReads {
			return nil, fmt.Errorf("store: read %s %d times: %w", pk, tornReads, err)
		}
	}
}

// tornItems reports a split document among items (in SK order) whose parts
// are not its own.
func tornItems(items []*Item) error {
	var recs []*Record
	for _, it := range items {
		r, err := fromItem(it.attrs)
		if err != nil {
			return fmt.Errorf("store: %s/%s: %w", it.PK, it.SK, err)
		}
		r.Doc = nil // only versions and counts are compared
		recs = append(recs, r)
	}
	if _, torn := joinParts(recs); len(torn) > 0 {
		return fmt.Errorf("%s/%s: %w", torn[0].PK, torn[0].SK, errTorn)
	}
	return nil
}

// ownItems drops from items (in SK order) the parts that are not their
// head's own: another build's, which no reader joins.
func ownItems(items []*Item) []*Item {
	out := items[:0]
	var head *Record
	for _, it := range items {
		if it.Kind == KindPart && strings.Contains(it.SK, partSuffix) {
			if head == nil || !ownPart(head, it.SK) {
				continue
			}
		} else if r, err := fromItem(it.attrs); err == nil {
			head = r
		}
		out = append(out, it)
	}
	return out
}

func (s *Store) items(ctx context.Context, pk string) ([]*Item, error) {
	in := &dynamodb.QueryInput{
		TableName:                 &s.table,
		ConsistentRead:            aws.Bool(true),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}},
	}
	var out []*Item
	p := dynamodb.NewQueryPaginator(s.db, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, wrap("query "+pk, err)
		}
		for _, it := range page.Items {
			out = append(out, newItem(it))
		}
	}
	return out, nil
}

func newItem(attrs map[string]types.AttributeValue) *Item {
	it := &Item{attrs: attrs}
	str := func(name string) string {
		if v, ok := attrs[name].(*types.AttributeValueMemberS); ok {
			return v.Value
		}
		return ""
	}
	it.PK, it.SK, it.Kind = str("PK"), str("SK"), str("kind")
	return it
}

// MarshalJSON writes the item as DynamoDB JSON, attributes in name order.
func (it *Item) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range slices.Sorted(maps.Keys(it.attrs)) {
		if i > 0 {
			b.WriteByte(',')
		}
		n, _ := json.Marshal(name)
		b.Write(n)
		b.WriteByte(':')
		switch v := it.attrs[name].(type) {
		case *types.AttributeValueMemberS:
			s, _ := json.Marshal(v.Value)
			fmt.Fprintf(&b, `{"S":%s}`, s)
		case *types.AttributeValueMemberN:
			s, _ := json.Marshal(v.Value)
			fmt.Fprintf(&b, `{"N":%s}`, s)
		case *types.AttributeValueMemberB:
			fmt.Fprintf(&b, `{"B":"%s"}`, base64.StdEncoding.EncodeToString(v.Value))
		default:
			return nil, fmt.Errorf("store: attribute %s has a type an export does not carry", name)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ParseItem reads one item written by MarshalJSON. The attribute types the
// table uses (S, N, B) are accepted; PK, SK, kind and ver must be present.
func ParseItem(data []byte) (*Item, error) {
	var raw map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not an item in DynamoDB JSON: %v", err)
	}
	attrs := make(map[string]types.AttributeValue, len(raw))
	for name, v := range raw {
		if len(v) != 1 {
			return nil, fmt.Errorf("attribute %q: want exactly one type", name)
		}
		var err error
		switch {
		case v["S"] != nil:
			var s string
			err = json.Unmarshal(v["S"], &s)
			attrs[name] = &types.AttributeValueMemberS{Value: s}
		case v["N"] != nil:
			var s string
			err = json.Unmarshal(v["N"], &s)
			if _, perr := strconv.ParseFloat(s, 64); err == nil && perr != nil {
				err = fmt.Errorf("%q is not a number", s)
			}
			attrs[name] = &types.AttributeValueMemberN{Value: s}
		case v["B"] != nil:
			var b []byte
			err = json.Unmarshal(v["B"], &b)
			attrs[name] = &types.AttributeValueMemberB{Value: b}
		default:
			return nil, fmt.Errorf("attribute %q: want type S, N or B", name)
		}
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %v", name, err)
		}
	}
	it := newItem(attrs)
	if it.PK == "" || it.SK == "" || it.Kind == "" {
		return nil, errors.New("an item needs string attributes PK, SK and kind")
	}
	if _, ok := attrs["ver"].(*types.AttributeValueMemberN); !ok {
		return nil, errors.New("an item needs a number attribute ver")
	}
	return it, nil
}

func (it *Item) same(other map[string]types.AttributeValue) bool {
	a, err1 := it.MarshalJSON()
	b, err2 := newItem(other).MarshalJSON()
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

// CreateItems writes items that must not exist yet, all or nothing as far as
// readers can tell: they are written in transactions of up to 100 items and
// 4 MB, each item under attribute_not_exists, and the last item is written
// only after all the others (an event's META item last: until it exists the event is not
// found). An item already stored exactly as given counts as written, so the
// same items sent again after a failure complete the job; one stored
// differently is ErrConflict. When a write fails the items this call created
// are deleted again (best effort) before the error is returned.
func (s *Store) CreateItems(ctx context.Context, items []*Item) (err error) {
	var created []*Item
	defer func() {
		if err == nil {
			return
		}
		undo := context.WithoutCancel(ctx)
		for _, it := range created {
			_ = s.Delete(undo, it.PK, it.SK)
		}
	}()
	if len(items) == 0 {
		return nil
	}
	defer func() {
		done := make([]written, len(created))
		for i, it := range created {
			done[i] = written{it.PK, it.SK, true}
		}
		s.advance(ctx, done)
	}()
	body, last := items[:len(items)-1], items[len(items)-1:]
	for _, chunk := range [][]*Item{body, last} {
		parts := transactChunks(chunk) // within 100 items and 4 MB each
		made := make([][]*Item, len(parts))
		errs := make([]error, len(parts))
		// Several transactions at once (a 10,000-player event is ~250 of
		// them): the import answers well within API Gateway's 29 s.
		sem := make(chan struct{}, createParallelism)
		var wg sync.WaitGroup
		for i, part := range parts {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				made[i], errs[i] = s.createChunk(ctx, part)
			}()
		}
		wg.Wait()
		for _, n := range made {
			created = append(created, n...)
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
	}
	return nil
}

// createParallelism is how many of CreateItems' transactions are in flight at once.
const createParallelism = 8

// createChunk writes up to 100 new items in one transaction; if some exist
// already it falls back to one conditional put each, to tell an identical
// item (fine) from a different one (ErrConflict). It returns the items it created.
func (s *Store) createChunk(ctx context.Context, items []*Item) ([]*Item, error) {
	tx := make([]types.TransactWriteItem, len(items))
	for i, it := range items {
		tx[i] = types.TransactWriteItem{Put: &types.Put{TableName: &s.table, Item: it.attrs, ConditionExpression: aws.String("attribute_not_exists(PK)")}}
	}
	err := wrap("create items", func() error {
		_, err := s.db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tx})
		return err
	}())
	if err == nil {
		return items, nil
	}
	if !errors.Is(err, ErrConflict) {
		return nil, err
	}
	var created []*Item
	for _, it := range items {
		_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &s.table, Item: it.attrs, ConditionExpression: aws.String("attribute_not_exists(PK)")})
		if err == nil {
			created = append(created, it)
			continue
		}
		if err = wrap("create "+it.PK+"/"+it.SK, err); !errors.Is(err, ErrConflict) {
			return created, err
		}
		out, gerr := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.table, Key: key(it.PK, it.SK), ConsistentRead: aws.Bool(true)})
		if gerr != nil {
			return created, wrap("get "+it.PK+"/"+it.SK, gerr)
		}
		if !it.same(out.Item) {
			return created, fmt.Errorf("%s/%s exists with other content: %w", it.PK, it.SK, ErrConflict)
		}
	}
	return created, nil
}

// ItemCount is how many items the table holds: exact on the embedded server,
// DynamoDB's periodically refreshed estimate on AWS.
func (s *Store) ItemCount(ctx context.Context) (int64, error) {
	out, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &s.table})
	if err != nil {
		return 0, wrap("describe table", err)
	}
	return aws.ToInt64(out.Table.ItemCount), nil
}

// itemAttributes are the attributes the table's items have (store.go's
// itemWith): an imported item with any other is refused, so an import can
// add nothing that no code reads, an index key least of all.
var itemAttributes = map[string]string{"PK": "S", "SK": "S", "kind": "S", "ver": "N", "doc": "B", "parts": "N", "ttl": "N", "build": "S"}

// Documents joins imported items (in any order) into the records they store,
// each split document's continuation parts appended to its head, in key
// order, for the importer to decode and check before anything is written.
// An item with an attribute the table does not use (or of another type), a
// number that is not an integer, a head without all its parts or a part
// without its head is an error naming the item.
func Documents(items []*Item) ([]*Record, error) {
	recs := make([]*Record, 0, len(items))
	for _, it := range items {
		for name, v := range it.attrs {
			want, ok := itemAttributes[name]
			if !ok {
				return nil, fmt.Errorf("%s/%s: attribute %q is not one of the table's", it.PK, it.SK, name)
			}
			var got string
			switch v.(type) {
			case *types.AttributeValueMemberS:
				got = "S"
			case *types.AttributeValueMemberN:
				got = "N"
			case *types.AttributeValueMemberB:
				got = "B"
			}
			if got != want {
				return nil, fmt.Errorf("%s/%s: attribute %q must be of type %s", it.PK, it.SK, name, want)
			}
		}
		r, err := fromItem(it.attrs)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %v", it.PK, it.SK, err)
		}
		if r.Version < 0 || r.Parts < 0 || r.Expires < 0 {
			return nil, fmt.Errorf("%s/%s: a negative ver, parts or ttl", it.PK, it.SK)
		}
		recs = append(recs, r)
	}
	slices.SortFunc(recs, func(a, b *Record) int {
		if c := strings.Compare(a.PK, b.PK); c != 0 {
			return c
		}
		return strings.Compare(a.SK, b.SK)
	})
	out := recs[:0]
	for i := 0; i < len(recs); {
		head := recs[i]
		if head.Kind == KindPart {
			return nil, fmt.Errorf("%s/%s: a part without its head", head.PK, head.SK)
		}
		j := i + 1
		for j < len(recs) && recs[j].PK == head.PK && recs[j].Kind == KindPart && ownPart(head, recs[j].SK) {
			j++
		}
		parts := recs[i+1 : j]
		if err := checkParts(head, parts); err != nil {
			return nil, fmt.Errorf("%s/%s: its parts are not all there, or not of its version", head.PK, head.SK)
		}
		joined := *head
		joined.Doc = slices.Clip(joined.Doc)
		joined.attach(parts)
		out = append(out, &joined)
		i = j
	}
	return out, nil
}

// PageLimit bounds one read of ItemsAfter: at most Bytes, every item
// counted as Size counts it, and, when Items is positive, at most Items
// items. Started says the page the items go on holds others already: then
// nothing is taken past the limits; otherwise the first item always is.
type PageLimit struct {
	Bytes, Items int
	Size         func(*Item) int
	Started      bool
}

// ItemsAfter reads a page of partition pk as Items reads all of it: the
// items whose SK sorts after afterSK ("" from the first), in SK order,
// parts of no head's build left out, as many as lim allows, and whether
// more follow. A page ends only before an item that is not a part, so that
// a split document travels with its head: a document that begins on a page
// holding others and does not fit it is left whole for the next page. Only
// a document larger than an empty page is cut between its parts; the read
// that continues after such a part reads its head again to tell its own
// parts from another build's. A document whose parts are not its head's
// version (a write committed between the Query's pages) is read again, as
// Items does. The Query goes on past DynamoDB's 1 MB pages until lim is
// reached, so a page costs what it holds and at most one Query page more.
func (s *Store) ItemsAfter(ctx context.Context, pk, afterSK string, lim PageLimit) (items []*Item, more bool, err error) {
	for attempt := 1; ; attempt++ {
		items, more, err = s.itemsAfter(ctx, pk, afterSK, lim)
		if !errors.Is(err, errTorn) {
			return items, more, err
		}
		if attempt == tornReads {
			return nil, false, fmt.Errorf("store: read %s after %q %d times: %w", pk, afterSK, tornReads, err)
		}
	}
}

func (s *Store) itemsAfter(ctx context.Context, pk, afterSK string, lim PageLimit) ([]*Item, bool, error) {
	var head *Record // the head whose parts may follow
	if i := strings.Index(afterSK, partSuffix); i > 0 {
		got, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.table, Key: key(pk, afterSK[:i]), ConsistentRead: aws.Bool(true)})
		if err != nil {
			return nil, false, wrap("get "+pk+"/"+afterSK[:i], err)
		}
		if got.Item != nil {
			if head, err = fromItem(got.Item); err != nil {
				return nil, false, fmt.Errorf("store: %s/%s: %w", pk, afterSK[:i], err)
			}
		}
	}
	in := &dynamodb.QueryInput{
		TableName:                 &s.table,
		ConsistentRead:            aws.Bool(true),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}},
	}
	if afterSK != "" {
		in.KeyConditionExpression = aws.String("PK = :pk AND SK > :a")
		in.ExpressionAttributeValues[":a"] = &types.AttributeValueMemberS{Value: afterSK}
	}
	if lim.Items > 0 {
		in.Limit = aws.Int32(int32(min(lim.Items+1, 1<<20))) // one more, to know whether more follow
	}
	var (
		out    []*Item
		size   int
		unitAt = -1 // where in out the current document's head is; -1 while the read is inside one begun before
		parts  []*Record
	)
	// whole checks the document that just ended, read head and parts
	// together on this page, as tornItems checks a whole partition.
	whole := func() error {
		if unitAt < 0 || head == nil || head.Parts == 0 && head.Build == "" {
			return nil
		}
		return checkParts(head, parts)
	}
	p := dynamodb.NewQueryPaginator(s.db, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, false, wrap("query "+pk, err)
		}
		for _, attrs := range page.Items {
			it := newItem(attrs)
			r, err := fromItem(attrs)
			if err != nil {
				return nil, false, fmt.Errorf("store: %s/%s: %w", it.PK, it.SK, err)
			}
			isPart := it.Kind == KindPart && strings.Contains(it.SK, partSuffix)
			if isPart {
				if head == nil || !ownPart(head, it.SK) {
					continue // another build's, as ownItems leaves out
				}
				if head.Build == "" && r.Version != head.Version && r.Version != 0 {
					return nil, false, fmt.Errorf("%s/%s: %w", it.PK, it.SK, errTorn)
				}
			} else {
				if err := whole(); err != nil {
					return nil, false, err
				}
				head, unitAt, parts = r, len(out), nil
			}
			n := lim.Size(it)
			if (size+n <= lim.Bytes && (lim.Items <= 0 || len(out) < lim.Items)) || len(out) == 0 && !lim.Started {
				out, size = append(out, it), size+n
				if isPart {
					parts = append(parts, r)
				}
				continue
			}
			if isPart && unitAt >= 0 && (unitAt > 0 || lim.Started) {
				out = out[:unitAt] // the document goes whole on the next page
			}
			return out, true, nil
		}
	}
	if err := whole(); err != nil {
		return nil, false, err
	}
	return out, false, nil
}
