package embedded

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdktypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/truora/minidyn/server"

	"github.com/xqtour/xqtour/shared/store"
)

// Per-partition throughput. A DynamoDB table, on demand or provisioned,
// serves one partition key at most about 1,000 write units and 3,000 read
// units a second ("key range throughput"); more than that is throttled even
// when the table as a whole has capacity to spare. The engine serves
// whatever it is sent, so a design that concentrates an event's traffic on
// one partition key works locally and throttles on AWS. With the limits on
// (LimitPartitions, or DYNAMODB_FAULTS=partition), the server keeps a bucket
// of units per partition key and refuses what DynamoDB would.
//
// Units are counted as DynamoDB bills them: a write 1 unit per started KB of
// the larger of the item's old and new images (a delete: the old one), a
// strongly consistent read 1 unit per started 4 KB (half for an eventually
// consistent one; a Query adds up the sizes of the page's items before
// rounding), both at least one quantum; inside TransactWriteItems and
// TransactGetItems every item costs twice. A conditional write refused by its
// condition is billed as if made. A ConditionCheck is billed as a write of
// the checked item.
//
// Each partition's bucket holds at most one second of its rate and refills
// continuously. A request is served when every partition it touches has at
// least what the request will cost it there as far as it can be known
// beforehand (a put's item, the old image of an updated or deleted item; for
// a read, one quantum), capped at one second's worth so that a single large
// request can still be served; the whole cost, known once it is served, is
// then taken, and a partition left in debt throttles until it refills — the
// way DynamoDB charges a read whose size it learns as it reads. A refused
// request does nothing and costs nothing; it is answered with DynamoDB's
// throttling error for a hot key: ProvisionedThroughputExceededException with
// the throttling reason TableReadKeyRangeThroughputExceeded or
// TableWriteKeyRangeThroughputExceeded (for TransactWriteItems,
// TransactionCanceledException with ThrottlingError for every item), which
// the SDK retries with back-off. BatchGetItem and BatchWriteItem are refused
// whole when one of their partitions is hot (DynamoDB would return the hot
// items as unprocessed; the store retries both answers alike).
//
// Only the base table's partition keys are limited (the store has no
// secondary index); the table's own total and the account's limits are not
// modelled, nor are the partitions DynamoDB splits a hot key range into by
// sort key (it does so after minutes of sustained load, which a round does
// not give it).

// Published per-partition limits of DynamoDB.
const (
	// PartitionWriteUnits is the write capacity units one partition key serves a second.
	PartitionWriteUnits = 1000
	// PartitionReadUnits is the read capacity units one partition key serves a second.
	PartitionReadUnits = 3000
)

// PartitionLimits are the units one partition key serves a second; a zero
// rate is no limit on that kind.
type PartitionLimits struct {
	WriteUnits, ReadUnits float64
}

// DefaultPartitionLimits are DynamoDB's.
var DefaultPartitionLimits = PartitionLimits{WriteUnits: PartitionWriteUnits, ReadUnits: PartitionReadUnits}

// LimitPartitions enforces l on every partition key from now on; the zero
// PartitionLimits stops it (and forgets the buckets and the statistics).
func (s *Server) LimitPartitions(l PartitionLimits) {
	if l == (PartitionLimits{}) {
		s.limiter.Store(nil)
		return
	}
	s.limiter.Store(newLimiter(l))
	s.hook() // the limiter learns items' sizes from the commits
}

// PartitionStats is what the partition limits did so far.
type PartitionStats struct {
	// Limits are the limits in force (zero: off).
	Limits PartitionLimits `json:"limits"`
	// ThrottledReads and ThrottledWrites count the requests refused.
	ThrottledReads  int64 `json:"throttledReads"`
	ThrottledWrites int64 `json:"throttledWrites"`
	// Hottest are the partition keys with the most units consumed in any one
	// second, hottest first (at most ten).
	Hottest []PartitionUse `json:"hottest"`
}

// PartitionUse is one partition key's busiest second and largest request.
type PartitionUse struct {
	PK string `json:"pk"`
	// PeakWrite and PeakRead are the most units consumed within one
	// wall-clock second.
	PeakWrite float64 `json:"peakWrite"`
	PeakRead  float64 `json:"peakRead"`
	// LargestWrite and LargestRead are the most units one request took here.
	LargestWrite float64 `json:"largestWrite"`
	LargestRead  float64 `json:"largestRead"`
	// Throttled counts the requests refused because of this partition.
	Throttled int64 `json:"throttled"`
}

// Partitions reports what the partition limits did so far.
func (s *Server) Partitions() PartitionStats {
	l := s.limiter.Load()
	if l == nil {
		return PartitionStats{}
	}
	return l.stats()
}

// limiter keeps a bucket per partition key and the size of every item it
// has seen committed (a write's cost depends on the old image).
type limiter struct {
	limits PartitionLimits
	now    func() time.Time // time.Now; tests hold it

	mu      sync.Mutex
	buckets map[string]*bucket
	sizes   map[string]int32 // engine key "<PK>.<SK>" → item size

	throttledReads, throttledWrites atomic.Int64
}

type bucket struct {
	read, write float64 // units available (negative: in debt)
	last        time.Time
	window      int64 // the wall-clock second used/peak count in
	used        PartitionUse
	usedRead    float64
	usedWrite   float64
}

func newLimiter(l PartitionLimits) *limiter {
	return &limiter{limits: l, now: time.Now, buckets: map[string]*bucket{}, sizes: map[string]int32{}}
}

// touch is one item (or a Query's partition) a request reads or writes.
type touch struct {
	pk, key    string // key "" for a Query
	write      bool
	size       int  // a put's new item
	double     bool // inside a transaction
	consistent bool
}

// refill brings b up to now; caller holds l.mu.
func (l *limiter) refill(b *bucket, now time.Time) {
	dt := now.Sub(b.last).Seconds()
	b.last = now
	if dt <= 0 {
		return
	}
	b.read = min(l.limits.ReadUnits, b.read+dt*l.limits.ReadUnits)
	b.write = min(l.limits.WriteUnits, b.write+dt*l.limits.WriteUnits)
}

func (l *limiter) bucket(pk string, now time.Time) *bucket {
	b, ok := l.buckets[pk]
	if !ok {
		b = &bucket{read: l.limits.ReadUnits, write: l.limits.WriteUnits, last: now}
		b.used.PK = pk
		l.buckets[pk] = b
		return b
	}
	l.refill(b, now)
	return b
}

// admit decides whether the request may be served now, reporting the
// partition key that refuses it and whether for writes.
func (l *limiter) admit(ts []touch) (hot string, write bool, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	needR, needW := map[string]float64{}, map[string]float64{}
	for _, t := range ts {
		if t.write {
			size := max(t.size, int(l.sizes[t.key]))
			needW[t.pk] += factor(t.double) * store.WriteUnits(size)
		} else {
			needR[t.pk] += factor(t.double) * store.ReadUnits(0, t.consistent)
		}
	}
	for _, pk := range sortedKeys(needW) {
		if l.limits.WriteUnits > 0 && l.bucket(pk, now).write < min(needW[pk], l.limits.WriteUnits) {
			return pk, true, false
		}
	}
	for _, pk := range sortedKeys(needR) {
		if l.limits.ReadUnits > 0 && l.bucket(pk, now).read < min(needR[pk], l.limits.ReadUnits) {
			return pk, false, false
		}
	}
	return "", false, true
}

// refused counts a refusal on partition pk.
func (l *limiter) refused(pk string, write bool) {
	if write {
		l.throttledWrites.Add(1)
	} else {
		l.throttledReads.Add(1)
	}
	l.mu.Lock()
	l.bucket(pk, l.now()).used.Throttled++
	l.mu.Unlock()
}

// before is the old sizes of the items a request writes, read before it is served.
func (l *limiter) before(ts []touch) []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]int, len(ts))
	for i, t := range ts {
		if t.write {
			out[i] = int(l.sizes[t.key])
		}
	}
	return out
}

// chargeWrites takes what a served (or condition-refused) write cost: each
// item at the larger of its old image, its new one and the put's item.
func (l *limiter) chargeWrites(ts []touch, old []int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	per := map[string]float64{}
	for i, t := range ts {
		if !t.write {
			continue
		}
		size := max(old[i], int(l.sizes[t.key]), t.size)
		per[t.pk] += factor(t.double) * store.WriteUnits(size)
	}
	for pk, u := range per {
		l.take(l.bucket(pk, now), now, 0, u)
	}
}

// chargeReads takes what a served read cost on each partition.
func (l *limiter) chargeReads(per map[string]float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	for pk, u := range per {
		l.take(l.bucket(pk, now), now, u, 0)
	}
}

// take debits b and keeps its busiest second; caller holds l.mu.
func (l *limiter) take(b *bucket, now time.Time, read, write float64) {
	b.read -= read
	b.write -= write
	if sec := now.Unix(); sec != b.window {
		b.window, b.usedRead, b.usedWrite = sec, 0, 0
	}
	b.usedRead += read
	b.usedWrite += write
	b.used.PeakRead = max(b.used.PeakRead, b.usedRead)
	b.used.PeakWrite = max(b.used.PeakWrite, b.usedWrite)
	b.used.LargestRead = max(b.used.LargestRead, read)
	b.used.LargestWrite = max(b.used.LargestWrite, write)
}

// committed records the sizes a commit left (under the engine's lock).
func (l *limiter) committed(changes []server.Change) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range changes {
		if c.Item == nil {
			delete(l.sizes, c.Key)
			continue
		}
		attrs := make(map[string]sdktypes.AttributeValue, len(c.Item))
		for name, v := range c.Item {
			if a := attribute(v); a != nil {
				attrs[name] = a
			}
		}
		l.sizes[c.Key] = int32(store.ItemSize(attrs))
	}
}

func (l *limiter) stats() PartitionStats {
	l.mu.Lock()
	uses := make([]PartitionUse, 0, len(l.buckets))
	for _, b := range l.buckets {
		uses = append(uses, b.used)
	}
	l.mu.Unlock()
	heat := func(u PartitionUse) float64 {
		return max(u.PeakWrite/max(l.limits.WriteUnits, 1), u.PeakRead/max(l.limits.ReadUnits, 1))
	}
	slices.SortFunc(uses, func(a, b PartitionUse) int {
		if ha, hb := heat(a), heat(b); ha != hb {
			if ha > hb {
				return -1
			}
			return 1
		}
		return strings.Compare(a.PK, b.PK)
	})
	return PartitionStats{Limits: l.limits, ThrottledReads: l.throttledReads.Load(), ThrottledWrites: l.throttledWrites.Load(), Hottest: uses[:min(len(uses), 10)]}
}

func factor(double bool) float64 {
	if double {
		return 2
	}
	return 1
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Reading requests and answers. The wire form of an attribute value is
// DynamoDB's JSON ({"S":"…"}, {"B":"base64"}, …); encoding/json decodes B
// and BS from base64 itself.

type wireValue struct {
	S    *string              `json:"S"`
	N    *string              `json:"N"`
	B    []byte               `json:"B"`
	BOOL *bool                `json:"BOOL"`
	NULL *bool                `json:"NULL"`
	SS   []string             `json:"SS"`
	NS   []string             `json:"NS"`
	BS   [][]byte             `json:"BS"`
	L    []wireValue          `json:"L"`
	M    map[string]wireValue `json:"M"`
}

type wireItem map[string]wireValue

func (v wireValue) sdk() sdktypes.AttributeValue {
	switch {
	case v.S != nil:
		return &sdktypes.AttributeValueMemberS{Value: *v.S}
	case v.N != nil:
		return &sdktypes.AttributeValueMemberN{Value: *v.N}
	case v.B != nil:
		return &sdktypes.AttributeValueMemberB{Value: v.B}
	case v.BOOL != nil:
		return &sdktypes.AttributeValueMemberBOOL{Value: *v.BOOL}
	case v.NULL != nil:
		return &sdktypes.AttributeValueMemberNULL{Value: *v.NULL}
	case v.SS != nil:
		return &sdktypes.AttributeValueMemberSS{Value: v.SS}
	case v.NS != nil:
		return &sdktypes.AttributeValueMemberNS{Value: v.NS}
	case v.BS != nil:
		return &sdktypes.AttributeValueMemberBS{Value: v.BS}
	case v.L != nil:
		l := make([]sdktypes.AttributeValue, len(v.L))
		for i, e := range v.L {
			l[i] = e.sdk()
		}
		return &sdktypes.AttributeValueMemberL{Value: l}
	case v.M != nil:
		return &sdktypes.AttributeValueMemberM{Value: wireItem(v.M).sdk()}
	}
	return &sdktypes.AttributeValueMemberNULL{Value: true}
}

func (it wireItem) sdk() map[string]sdktypes.AttributeValue {
	out := make(map[string]sdktypes.AttributeValue, len(it))
	for k, v := range it {
		out[k] = v.sdk()
	}
	return out
}

func (it wireItem) size() int { return store.ItemSize(it.sdk()) }

func (it wireItem) str(name string) string {
	if v, ok := it[name]; ok && v.S != nil {
		return *v.S
	}
	return ""
}

// Key attributes: the store's table (store.CreateTable) is keyed PK, SK;
// the engine names an item "<PK>.<SK>".
const hashKey, rangeKey = "PK", "SK"

func (it wireItem) key() (pk, key string) {
	pk = it.str(hashKey)
	return pk, pk + "." + it.str(rangeKey)
}

type wireKeys struct {
	Keys           []wireItem
	ConsistentRead bool
}

type wireWrite struct {
	PutRequest    *struct{ Item wireItem }
	DeleteRequest *struct{ Key wireItem }
}

type wireTransactItem struct {
	Put            *struct{ Item wireItem }
	Update         *struct{ Key wireItem }
	Delete         *struct{ Key wireItem }
	ConditionCheck *struct{ Key wireItem }
	Get            *struct{ Key wireItem }
}

type wireRequest struct {
	Item                      wireItem
	Key                       wireItem
	ConsistentRead            bool
	KeyConditionExpression    string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues wireItem
	IndexName                 string
	RequestItems              map[string]json.RawMessage
	TransactItems             []wireTransactItem
}

// touches lists what a request reads and writes, by partition; ok is false
// for what the limits leave alone (the control plane, a Scan, an index).
func touches(op string, body []byte) (ts []touch, ok bool) {
	var in wireRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, false
	}
	write := func(it wireItem, size int, double bool) {
		pk, key := it.key()
		ts = append(ts, touch{pk: pk, key: key, write: true, size: size, double: double})
	}
	read := func(it wireItem, consistent, double bool) {
		pk, key := it.key()
		ts = append(ts, touch{pk: pk, key: key, consistent: consistent, double: double})
	}
	switch op {
	case "PutItem":
		write(in.Item, in.Item.size(), false)
	case "UpdateItem", "DeleteItem":
		write(in.Key, 0, false)
	case "GetItem":
		read(in.Key, in.ConsistentRead, false)
	case "Query":
		pk := queryPartition(in)
		if pk == "" || in.IndexName != "" {
			return nil, false
		}
		ts = append(ts, touch{pk: pk, consistent: in.ConsistentRead})
	case "BatchGetItem":
		for _, raw := range in.RequestItems {
			var ks wireKeys
			if json.Unmarshal(raw, &ks) != nil {
				return nil, false
			}
			for _, k := range ks.Keys {
				read(k, ks.ConsistentRead, false)
			}
		}
	case "BatchWriteItem":
		for _, raw := range in.RequestItems {
			var ws []wireWrite
			if json.Unmarshal(raw, &ws) != nil {
				return nil, false
			}
			for _, w := range ws {
				switch {
				case w.PutRequest != nil:
					write(w.PutRequest.Item, w.PutRequest.Item.size(), false)
				case w.DeleteRequest != nil:
					write(w.DeleteRequest.Key, 0, false)
				}
			}
		}
	case "TransactWriteItems":
		for _, t := range in.TransactItems {
			switch {
			case t.Put != nil:
				write(t.Put.Item, t.Put.Item.size(), true)
			case t.Update != nil:
				write(t.Update.Key, 0, true)
			case t.Delete != nil:
				write(t.Delete.Key, 0, true)
			case t.ConditionCheck != nil:
				write(t.ConditionCheck.Key, 0, true)
			}
		}
	case "TransactGetItems":
		for _, t := range in.TransactItems {
			if t.Get != nil {
				read(t.Get.Key, true, true)
			}
		}
	default:
		return nil, false
	}
	return ts, len(ts) > 0
}

// equality matches "name = :value" in a key condition.
var equality = regexp.MustCompile(`([#\w]+)\s*=\s*(:\w+)`)

// queryPartition is the partition key value a Query's key condition names.
func queryPartition(in wireRequest) string {
	for _, m := range equality.FindAllStringSubmatch(in.KeyConditionExpression, -1) {
		name := m[1]
		if strings.HasPrefix(name, "#") {
			name = in.ExpressionAttributeNames[name]
		}
		if name == hashKey {
			return in.ExpressionAttributeValues.str(m[2])
		}
	}
	return ""
}

// readCost is what a served read cost on each partition, from its answer.
func readCost(op string, ts []touch, answer []byte) map[string]float64 {
	per := map[string]float64{}
	switch op {
	case "GetItem":
		var out struct{ Item wireItem }
		_ = json.Unmarshal(answer, &out)
		per[ts[0].pk] += store.ReadUnits(out.Item.size(), ts[0].consistent)
	case "Query":
		var out struct{ Items []wireItem }
		_ = json.Unmarshal(answer, &out)
		size := 0
		for _, it := range out.Items {
			size += it.size()
		}
		per[ts[0].pk] += store.ReadUnits(size, ts[0].consistent)
	case "BatchGetItem", "TransactGetItems":
		sizes := map[string]int{}
		if op == "BatchGetItem" {
			var out struct{ Responses map[string][]wireItem }
			_ = json.Unmarshal(answer, &out)
			for _, items := range out.Responses {
				for _, it := range items {
					_, key := it.key()
					sizes[key] = it.size()
				}
			}
		} else {
			var out struct{ Responses []struct{ Item wireItem } }
			_ = json.Unmarshal(answer, &out)
			for _, r := range out.Responses {
				if r.Item != nil {
					_, key := r.Item.key()
					sizes[key] = r.Item.size()
				}
			}
		}
		for _, t := range ts {
			per[t.pk] += factor(t.double) * store.ReadUnits(sizes[t.key], t.consistent)
		}
	}
	return per
}

// throttle answers DynamoDB's refusal for a hot partition key.
func throttle(w http.ResponseWriter, op, table string, body []byte, write bool) {
	reason := "TableReadKeyRangeThroughputExceeded"
	if write {
		reason = "TableWriteKeyRangeThroughputExceeded"
	}
	const message = "Throughput exceeds the current throughput limit for your partition key. Consider spreading the key's traffic over more partition keys."
	if op == "TransactWriteItems" {
		cancelTransaction(w, body, "ThrottlingError", message, false)
		return
	}
	out, _ := json.Marshal(map[string]any{
		"__type":            "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
		"message":           message,
		"ThrottlingReasons": []map[string]string{{"reason": reason, "resource": "arn:aws:dynamodb:local:000000000000:table/" + table}},
	})
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(out)
}

// tableName is the table a request names (the first of a batch's).
func tableName(body []byte) string {
	var in struct {
		TableName    string
		RequestItems map[string]json.RawMessage
	}
	_ = json.Unmarshal(body, &in)
	if in.TableName != "" {
		return in.TableName
	}
	for name := range in.RequestItems {
		return name
	}
	return "table"
}

// limited serves one request under the partition limits: refused when a
// partition it touches has no units left, else served by next and charged.
func (s *Server) limited(l *limiter, w http.ResponseWriter, op string, body []byte, next func(http.ResponseWriter)) {
	ts, ok := touches(op, body)
	if !ok {
		next(w)
		return
	}
	if pk, write, ok := l.admit(ts); !ok {
		l.refused(pk, write)
		throttle(w, op, tableName(body), body, write)
		return
	}
	writes := slices.ContainsFunc(ts, func(t touch) bool { return t.write })
	var old []int
	if writes {
		old = l.before(ts)
	}
	rec := &teeResponse{ResponseWriter: w, status: http.StatusOK, keep: !writes}
	next(rec)
	switch {
	case writes && (rec.status == http.StatusOK || rec.conditionRefused()):
		l.chargeWrites(ts, old)
	case !writes && rec.status == http.StatusOK:
		l.chargeReads(readCost(op, ts, rec.body.Bytes()))
	}
}

// teeResponse passes an answer on, keeping a read's body for its cost and
// a refused write's error type.
type teeResponse struct {
	http.ResponseWriter
	status int
	wrote  bool // the status is sent (a second WriteHeader changes nothing)
	keep   bool
	body   bytes.Buffer
	head   []byte // the first bytes of an error answer
}

func (t *teeResponse) WriteHeader(status int) {
	if t.wrote {
		return
	}
	t.status, t.wrote = status, true
	t.ResponseWriter.WriteHeader(status)
}

func (t *teeResponse) Write(b []byte) (int, error) {
	t.wrote = true
	if t.keep {
		t.body.Write(b)
	} else if t.status != http.StatusOK && len(t.head) < 256 {
		t.head = append(t.head, b[:min(len(b), 256-len(t.head))]...)
	}
	return t.ResponseWriter.Write(b)
}

// conditionRefused reports a write its condition refused (billed by DynamoDB).
func (t *teeResponse) conditionRefused() bool {
	return t.status == http.StatusBadRequest &&
		(bytes.Contains(t.head, []byte("ConditionalCheckFailedException")) || bytes.Contains(t.head, []byte("TransactionCanceledException")))
}

// String gives the limits in DYNAMODB_FAULTS's form.
func (l PartitionLimits) String() string {
	return fmt.Sprintf("partition=%g/%g", l.WriteUnits, l.ReadUnits)
}

// Hijack lets the fault injector close the connection of an answer it loses.
func (t *teeResponse) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if hj, ok := t.ResponseWriter.(http.Hijacker); ok {
		return hj.Hijack()
	}
	return nil, nil, http.ErrNotSupported
}

// PartitionUse reports partition key pk's busiest second, largest request
// and refusals so far (zero when the limits are off or pk was not used).
func (s *Server) PartitionUse(pk string) PartitionUse {
	l := s.limiter.Load()
	if l == nil {
		return PartitionUse{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if b, ok := l.buckets[pk]; ok {
		return b.used
	}
	return PartitionUse{}
}

// Throttles counts the requests the partition limits refused.
type Throttles struct {
	Reads  int64 `json:"reads"`
	Writes int64 `json:"writes"`
}

// PartitionThrottles is how many requests the partition limits refused so
// far: cheaper than Partitions, which sorts every key.
func (s *Server) PartitionThrottles() Throttles {
	l := s.limiter.Load()
	if l == nil {
		return Throttles{}
	}
	return Throttles{Reads: l.throttledReads.Load(), Writes: l.throttledWrites.Load()}
}
