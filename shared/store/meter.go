package store

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// Meter adds up what the DynamoDB calls made under one context consumed:
// read and write capacity units and the number of calls. Every call the
// store makes asks DynamoDB for its consumed capacity (ReturnConsumedCapacity
// TOTAL); when the answer carries none (the embedded server never reports it)
// the units are computed from the items' sizes the way DynamoDB rounds them
// (see estimate). A Meter is safe for concurrent use; its zero value is ready.
type Meter struct {
	mu          sync.Mutex
	read, write float64
	requests    int
	estimated   int
	conflicts   int
	throttles   int
}

// ReadUnits is the read capacity units consumed so far.
func (m *Meter) ReadUnits() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.read
}

// WriteUnits is the write capacity units consumed so far.
func (m *Meter) WriteUnits() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.write
}

// Requests is the number of DynamoDB calls made so far (each page of a
// paginated Query is one call; the SDK's retries of one call are not).
func (m *Meter) Requests() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.requests
}

// Estimated is how many of those calls had their units computed from item
// sizes because DynamoDB's answer reported none.
func (m *Meter) Estimated() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.estimated
}

// Conflicts is how many calls a condition or a concurrent transaction
// refused (lost races, most of them retried by the caller).
func (m *Meter) Conflicts() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.conflicts
}

// Throttles is how many calls DynamoDB still refused for capacity after the
// SDK's retries.
func (m *Meter) Throttles() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.throttles
}

func (m *Meter) refused(conflict, throttle bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if conflict {
		m.conflicts++
	}
	if throttle {
		m.throttles++
	}
}

func (m *Meter) add(read, write float64, estimated bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.read += read
	m.write += write
	m.requests++
	if estimated {
		m.estimated++
	}
}

// Absorb adds what o counted to m: a request's Meter to the one its
// caller measures with (a load generator timing requests from outside).
func (m *Meter) Absorb(o *Meter) {
	if m == nil || o == nil || m == o {
		return
	}
	o.mu.Lock()
	read, write, requests, estimated, conflicts, throttles := o.read, o.write, o.requests, o.estimated, o.conflicts, o.throttles
	o.mu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.read += read
	m.write += write
	m.requests += requests
	m.estimated += estimated
	m.conflicts += conflicts
	m.throttles += throttles
}

type meterKey struct{}

type expectedRefusalKey struct{}

// expectRefusal marks calls whose condition is expected to fail at times (a
// stamp that nobody has created yet): they are billed, but are no conflict
// for the request log.
func expectRefusal(ctx context.Context) context.Context {
	return context.WithValue(ctx, expectedRefusalKey{}, true)
}

func refusalExpected(ctx context.Context) bool {
	b, _ := ctx.Value(expectedRefusalKey{}).(bool)
	return b
}

// meters are the Meters a context carries, outermost first.
type meters []*Meter

// WithMeter returns a context under which every store call adds its consumed
// capacity to m, and also to any Meter ctx carries already: a tool's meter
// around a request and the request's own (the API meters each request) both
// count.
func WithMeter(ctx context.Context, m *Meter) context.Context {
	outer, _ := ctx.Value(meterKey{}).(meters)
	if slices.Contains(outer, m) {
		return ctx
	}
	return context.WithValue(ctx, meterKey{}, append(slices.Clip(outer), m))
}

// MeterFrom returns the innermost Meter WithMeter put in ctx, or nil.
func MeterFrom(ctx context.Context) *Meter {
	ms, _ := ctx.Value(meterKey{}).(meters)
	if len(ms) == 0 {
		return nil
	}
	return ms[len(ms)-1]
}

// meterMiddleware is added to every DynamoDB operation's stack: it asks for
// the consumed capacity and, after the call (its retries included), adds it
// to the context's Meter.
func meterMiddleware(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("xqtourMeter",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			askCapacity(in.Parameters)
			out, md, err := next.HandleInitialize(ctx, in)
			ms, _ := ctx.Value(meterKey{}).(meters)
			if len(ms) == 0 || !billed(in.Parameters) {
				return out, md, err
			}
			read, write, estimated := 0.0, 0.0, false
			conflict, throttle := false, false
			switch {
			case err != nil:
				// A write refused by its condition (or a cancelled transaction)
				// is billed as if it had been made; throttled and failed calls are not.
				var ccf *types.ConditionalCheckFailedException
				var tce *types.TransactionCanceledException
				if errors.As(err, &ccf) || errors.As(err, &tce) {
					read, write = estimate(in.Parameters, nil)
					estimated = true
				}
				wrapped := wrap("", err)
				conflict = errors.Is(wrapped, ErrConflict) && !refusalExpected(ctx)
				throttle = errors.Is(wrapped, ErrThrottled)
			default:
				var ok bool
				if read, write, ok = reported(in.Parameters, out.Result); !ok {
					read, write = estimate(in.Parameters, out.Result)
					estimated = true
				}
			}
			for _, m := range ms {
				m.add(read, write, estimated)
				m.refused(conflict, throttle)
			}
			return out, md, err
		}), middleware.After)
}

// billed reports whether the operation is a data call DynamoDB bills in
// capacity units (DescribeTable and CreateTable are not).
func billed(params any) bool {
	switch params.(type) {
	case *dynamodb.GetItemInput, *dynamodb.PutItemInput, *dynamodb.UpdateItemInput, *dynamodb.DeleteItemInput,
		*dynamodb.QueryInput, *dynamodb.ScanInput, *dynamodb.BatchGetItemInput, *dynamodb.BatchWriteItemInput,
		*dynamodb.TransactWriteItemsInput, *dynamodb.TransactGetItemsInput:
		return true
	}
	return false
}

func askCapacity(params any) {
	total := types.ReturnConsumedCapacityTotal
	switch in := params.(type) {
	case *dynamodb.GetItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.PutItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.UpdateItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.DeleteItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.QueryInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.ScanInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.BatchGetItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.BatchWriteItemInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.TransactWriteItemsInput:
		in.ReturnConsumedCapacity = total
	case *dynamodb.TransactGetItemsInput:
		in.ReturnConsumedCapacity = total
	}
}

// reported reads the consumed capacity DynamoDB returned, if it returned any.
func reported(params, result any) (read, write float64, ok bool) {
	var cs []types.ConsumedCapacity
	switch out := result.(type) {
	case *dynamodb.GetItemOutput:
		cs = one(out.ConsumedCapacity)
	case *dynamodb.PutItemOutput:
		cs = one(out.ConsumedCapacity)
	case *dynamodb.UpdateItemOutput:
		cs = one(out.ConsumedCapacity)
	case *dynamodb.DeleteItemOutput:
		cs = one(out.ConsumedCapacity)
	case *dynamodb.QueryOutput:
		cs = one(out.ConsumedCapacity)
	case *dynamodb.ScanOutput:
		cs = one(out.ConsumedCapacity)
	case *dynamodb.BatchGetItemOutput:
		cs = out.ConsumedCapacity
	case *dynamodb.BatchWriteItemOutput:
		cs = out.ConsumedCapacity
	case *dynamodb.TransactWriteItemsOutput:
		cs = out.ConsumedCapacity
	case *dynamodb.TransactGetItemsOutput:
		cs = out.ConsumedCapacity
	}
	if len(cs) == 0 {
		return 0, 0, false
	}
	reads := isRead(params)
	for _, c := range cs {
		switch {
		case c.ReadCapacityUnits != nil || c.WriteCapacityUnits != nil:
			read += aws.ToFloat64(c.ReadCapacityUnits)
			write += aws.ToFloat64(c.WriteCapacityUnits)
		case reads:
			read += aws.ToFloat64(c.CapacityUnits)
		default:
			write += aws.ToFloat64(c.CapacityUnits)
		}
	}
	return read, write, true
}

func one(c *types.ConsumedCapacity) []types.ConsumedCapacity {
	if c == nil {
		return nil
	}
	return []types.ConsumedCapacity{*c}
}

func isRead(params any) bool {
	switch params.(type) {
	case *dynamodb.GetItemInput, *dynamodb.QueryInput, *dynamodb.ScanInput, *dynamodb.BatchGetItemInput, *dynamodb.TransactGetItemsInput:
		return true
	}
	return false
}

// DynamoDB's billing quanta: a read unit covers up to 4 KB read strongly
// consistently (half a unit eventually consistently), a write unit 1 KB;
// transactional reads and writes cost twice as much.
const (
	readQuantum  = 4096
	writeQuantum = 1024
)

// ReadUnits is what reading size bytes costs: whole 4 KB quanta, at least one,
// halved for an eventually consistent read.
func ReadUnits(size int, consistent bool) float64 {
	u := math.Max(1, math.Ceil(float64(size)/readQuantum))
	if !consistent {
		u /= 2
	}
	return u
}

// WriteUnits is what writing an item of size bytes costs: whole 1 KB quanta, at least one.
func WriteUnits(size int) float64 { return math.Max(1, math.Ceil(float64(size)/writeQuantum)) }

// estimate computes a call's units from the sizes of the items it wrote or
// read (result is nil for a write refused by its condition). What it cannot
// know without another read is approximated: a put is billed on the new
// item's size (DynamoDB takes the larger of old and new), and a delete, an
// update or a condition check on an item it does not see costs one quantum.
func estimate(params, result any) (read, write float64) {
	switch in := params.(type) {
	case *dynamodb.GetItemInput:
		size := 0
		if out, ok := result.(*dynamodb.GetItemOutput); ok {
			size = ItemSize(out.Item)
		}
		return ReadUnits(size, aws.ToBool(in.ConsistentRead)), 0
	case *dynamodb.QueryInput:
		size := 0
		if out, ok := result.(*dynamodb.QueryOutput); ok {
			for _, it := range out.Items {
				size += ItemSize(it)
			}
		}
		// A Query's page is rounded once, over the sum of its items.
		return ReadUnits(size, aws.ToBool(in.ConsistentRead)), 0
	case *dynamodb.ScanInput:
		size := 0
		if out, ok := result.(*dynamodb.ScanOutput); ok {
			for _, it := range out.Items {
				size += ItemSize(it)
			}
		}
		return ReadUnits(size, aws.ToBool(in.ConsistentRead)), 0
	case *dynamodb.BatchGetItemInput:
		out, _ := result.(*dynamodb.BatchGetItemOutput)
		if out == nil {
			return 0, 0
		}
		// Each item is rounded on its own; a key found missing costs the minimum.
		for table, req := range in.RequestItems {
			consistent := aws.ToBool(req.ConsistentRead)
			found := out.Responses[table]
			for _, it := range found {
				read += ReadUnits(ItemSize(it), consistent)
			}
			missing := len(req.Keys) - len(found) - len(out.UnprocessedKeys[table].Keys)
			read += float64(max(missing, 0)) * ReadUnits(0, consistent)
		}
		return read, 0
	case *dynamodb.PutItemInput:
		return 0, WriteUnits(ItemSize(in.Item))
	case *dynamodb.UpdateItemInput:
		if out, ok := result.(*dynamodb.UpdateItemOutput); ok && in.ReturnValues == types.ReturnValueAllNew {
			return 0, WriteUnits(ItemSize(out.Attributes))
		}
		return 0, WriteUnits(0)
	case *dynamodb.DeleteItemInput:
		if out, ok := result.(*dynamodb.DeleteItemOutput); ok && in.ReturnValues == types.ReturnValueAllOld {
			return 0, WriteUnits(ItemSize(out.Attributes))
		}
		return 0, WriteUnits(0)
	case *dynamodb.BatchWriteItemInput:
		var unprocessed map[string][]types.WriteRequest
		if out, ok := result.(*dynamodb.BatchWriteItemOutput); ok {
			unprocessed = out.UnprocessedItems
		}
		for table, reqs := range in.RequestItems {
			for _, w := range reqs {
				write += batchWriteUnits(w)
			}
			for _, w := range unprocessed[table] {
				write -= batchWriteUnits(w)
			}
		}
		return 0, write
	case *dynamodb.TransactWriteItemsInput:
		for _, it := range in.TransactItems {
			switch {
			case it.Put != nil:
				write += 2 * WriteUnits(ItemSize(it.Put.Item))
			default: // Delete, Update, ConditionCheck: the item's size is unseen
				write += 2 * WriteUnits(0)
			}
		}
		return 0, write
	case *dynamodb.TransactGetItemsInput:
		out, _ := result.(*dynamodb.TransactGetItemsOutput)
		for i := range in.TransactItems {
			size := 0
			if out != nil && i < len(out.Responses) {
				size = ItemSize(out.Responses[i].Item)
			}
			read += 2 * ReadUnits(size, true)
		}
		return read, 0
	}
	return 0, 0
}

func batchWriteUnits(w types.WriteRequest) float64 {
	if w.PutRequest != nil {
		return WriteUnits(ItemSize(w.PutRequest.Item))
	}
	return WriteUnits(0)
}

// ItemSize is an item's size as DynamoDB counts it: each attribute's name
// plus its value (strings and binaries their length, numbers one byte per two
// significant digits plus one, lists and maps three bytes plus one per element
// plus the elements).
func ItemSize(item map[string]types.AttributeValue) int {
	n := 0
	for name, v := range item {
		n += len(name) + valueSize(v)
	}
	return n
}

func valueSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return numberBytes(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range v.Value {
			n += len(b)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += numberBytes(s)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + valueSize(e)
		}
		return n
	}
	return 0
}

// numberBytes is a number's size: its significant digits, two to a byte, plus one.
func numberBytes(s string) int {
	s = strings.TrimLeft(s, "+-")
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	s = strings.Replace(s, ".", "", 1)
	s = strings.Trim(s, "0")
	return 1 + (len(s)+1)/2
}
