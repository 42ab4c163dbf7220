package embedded

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Faults makes the embedded server fail as DynamoDB does now and then, so
// that the paths the store and the handlers have for DynamoDB's failures run
// locally: the engine serialises every write under one lock and never
// fails on its own. Each probability is drawn independently per request, in
// the order conflict, throttle, internal, ambiguous; the zero Faults injects
// nothing (the default).
type Faults struct {
	// Conflict: a conditional write or a transaction loses to a concurrent
	// transaction. PutItem, UpdateItem and DeleteItem with a
	// ConditionExpression answer TransactionConflictException;
	// TransactWriteItems answers TransactionCanceledException whose
	// cancellation reasons give TransactionConflict for one of its items and
	// None for the others. Unconditional writes and reads never conflict
	// (DynamoDB's conflicts come from items inside a transaction, and
	// xqtour's unconditional writes are to items no transaction touches).
	Conflict float64
	// Throttle: any call is refused for capacity: HTTP 400 with
	// ProvisionedThroughputExceededException or ThrottlingException (one of
	// the two at random), or for TransactWriteItems, half the time,
	// TransactionCanceledException with ThrottlingError reasons.
	Throttle float64
	// Internal: any call fails with HTTP 500 InternalServerError, having
	// done nothing.
	Internal float64
	// Ambiguous: a write (PutItem, UpdateItem, DeleteItem,
	// TransactWriteItems, BatchWriteItem) is applied, and then its answer
	// is lost: half the time an HTTP 500 InternalServerError is sent
	// instead, half the time the connection is closed without an answer.
	// The SDK retries both, so the retry meets the write's own effect.
	Ambiguous float64
	// LatencyMin and LatencyMax delay every request by a uniform random
	// time between them.
	LatencyMin, LatencyMax time.Duration
	// Partition, when not zero, limits every partition key's throughput
	// (throughput.go): "partition" or "partition=on" is DynamoDB's 1,000
	// write and 3,000 read units a second, "partition=W/R" other rates.
	Partition PartitionLimits
}

// FaultCounts is how many faults of each kind were injected.
type FaultCounts struct {
	Conflict  int64 `json:"conflict"`
	Throttle  int64 `json:"throttle"`
	Internal  int64 `json:"internal"`
	Ambiguous int64 `json:"ambiguous"`
}

// ParseFaults reads a fault specification as DYNAMODB_FAULTS gives it:
// comma-separated kind=probability pairs (conflict, throttle, internal,
// ambiguous; each between 0 and 1), latency=MIN-MAX with Go durations
// ("0-30ms", "5ms-1s"; a single duration is a fixed delay) and partition
// (per-partition throughput limits: "partition", "partition=on" for
// DynamoDB's, "partition=W/R" for W write and R read units a second). ""
// is no faults.
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	for field := range strings.SplitSeq(spec, ",") {
		field = strings.TrimSpace(field)
		if field == "" {
			continue
		}
		name, val, ok := strings.Cut(field, "=")
		if strings.TrimSpace(name) == "partition" {
			l, err := parsePartition(strings.TrimSpace(val), ok)
			if err != nil {
				return Faults{}, err
			}
			f.Partition = l
			continue
		}
		if !ok {
			return Faults{}, fmt.Errorf("DYNAMODB_FAULTS: %q: want kind=value", field)
		}
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		if name == "latency" {
			lo, hi, err := parseLatency(val)
			if err != nil {
				return Faults{}, fmt.Errorf("DYNAMODB_FAULTS: latency %q: %v", val, err)
			}
			f.LatencyMin, f.LatencyMax = lo, hi
			continue
		}
		p, err := strconv.ParseFloat(val, 64)
		if err != nil || p < 0 || p > 1 {
			return Faults{}, fmt.Errorf("DYNAMODB_FAULTS: %s=%q: want a probability between 0 and 1", name, val)
		}
		switch name {
		case "conflict":
			f.Conflict = p
		case "throttle":
			f.Throttle = p
		case "internal":
			f.Internal = p
		case "ambiguous":
			f.Ambiguous = p
		default:
			return Faults{}, fmt.Errorf("DYNAMODB_FAULTS: unknown kind %q (want conflict, throttle, internal, ambiguous, latency or partition)", name)
		}
	}
	return f, nil
}

// parsePartition reads partition's value: none or "on" (DynamoDB's
// limits), or W/R units a second.
func parsePartition(val string, given bool) (PartitionLimits, error) {
	if !given || val == "on" {
		return DefaultPartitionLimits, nil
	}
	w, r, ok := strings.Cut(val, "/")
	wu, werr := strconv.ParseFloat(strings.TrimSpace(w), 64)
	ru, rerr := strconv.ParseFloat(strings.TrimSpace(r), 64)
	if !ok || werr != nil || rerr != nil || wu <= 0 || ru <= 0 {
		return PartitionLimits{}, fmt.Errorf("DYNAMODB_FAULTS: partition=%q: want on, or WRITE/READ units a second (1000/3000)", val)
	}
	return PartitionLimits{WriteUnits: wu, ReadUnits: ru}, nil
}

func parseLatency(val string) (lo, hi time.Duration, err error) {
	a, b, ranged := strings.Cut(val, "-")
	if !ranged {
		b = a
	}
	// "0-30ms": a bare number takes the unit of the other end.
	unit := strings.TrimLeft(b, "0123456789.")
	if strings.TrimLeft(a, "0123456789.") == "" {
		a += unit
	}
	if lo, err = time.ParseDuration(a); err != nil {
		return 0, 0, err
	}
	if hi, err = time.ParseDuration(b); err != nil {
		return 0, 0, err
	}
	if lo < 0 || hi < lo {
		return 0, 0, fmt.Errorf("want MIN-MAX with 0 <= MIN <= MAX")
	}
	return lo, hi, nil
}

// String gives the specification back in ParseFaults's form.
func (f Faults) String() string {
	var parts []string
	for _, kv := range []struct {
		name string
		p    float64
	}{{"conflict", f.Conflict}, {"throttle", f.Throttle}, {"internal", f.Internal}, {"ambiguous", f.Ambiguous}} {
		if kv.p > 0 {
			parts = append(parts, kv.name+"="+strconv.FormatFloat(kv.p, 'g', -1, 64))
		}
	}
	if f.LatencyMax > 0 {
		parts = append(parts, "latency="+f.LatencyMin.String()+"-"+f.LatencyMax.String())
	}
	if f.Partition != (PartitionLimits{}) {
		parts = append(parts, f.Partition.String())
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// SetFaults starts injecting f (the zero Faults stops); counts go on.
// f.Partition, when set, turns the partition limits on (LimitPartitions
// alone turns them off again).
func (s *Server) SetFaults(f Faults) {
	if f.Partition != (PartitionLimits{}) {
		s.LimitPartitions(f.Partition)
		f.Partition = PartitionLimits{}
	}
	if f == (Faults{}) {
		s.faults.Store(nil)
		return
	}
	s.faults.Store(&f)
}

// Injected returns how many faults of each kind were injected so far.
func (s *Server) Injected() FaultCounts {
	return FaultCounts{
		Conflict:  s.injected.conflict.Load(),
		Throttle:  s.injected.throttle.Load(),
		Internal:  s.injected.internal.Load(),
		Ambiguous: s.injected.ambiguous.Load(),
	}
}

type faultCounters struct{ conflict, throttle, internal, ambiguous atomic.Int64 }

// fault is what the fault injector decided for one request.
type fault int

const (
	noFault fault = iota
	conflictFault
	throttleFault
	internalFault
	ambiguousFault
)

// draw decides the fault for one request of operation op (its body, for the
// transaction's item count, read by the caller) and sleeps its latency.
func (s *Server) draw(op string, body []byte) fault {
	f := s.faults.Load()
	if f == nil {
		return noFault
	}
	if f.LatencyMax > 0 {
		time.Sleep(f.LatencyMin + time.Duration(rand.Int64N(int64(f.LatencyMax-f.LatencyMin)+1)))
	}
	write := false
	switch op {
	case "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem":
		write = true
	case "GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems":
	default:
		return noFault // the control plane (CreateTable, DescribeTable) is left alone
	}
	conditional := op == "TransactWriteItems" || (write && op != "BatchWriteItem" && bytes.Contains(body, []byte(`"ConditionExpression"`)))
	switch {
	case conditional && hit(f.Conflict):
		s.injected.conflict.Add(1)
		return conflictFault
	case hit(f.Throttle):
		s.injected.throttle.Add(1)
		return throttleFault
	case hit(f.Internal):
		s.injected.internal.Add(1)
		return internalFault
	case write && hit(f.Ambiguous):
		s.injected.ambiguous.Add(1)
		return ambiguousFault
	}
	return noFault
}

func hit(p float64) bool { return p > 0 && rand.Float64() < p }

// needsBody reports whether the injector reads the request's body.
func (s *Server) needsBody() bool { return s.faults.Load() != nil || s.limiter.Load() != nil }

// refuse answers a conflict, throttle or internal fault without serving the request.
func refuse(w http.ResponseWriter, fl fault, op string, body []byte) {
	switch fl {
	case conflictFault:
		if op == "TransactWriteItems" {
			cancelTransaction(w, body, "TransactionConflict", "Transaction is ongoing for the item", true)
			return
		}
		writeAPIError(w, http.StatusBadRequest, "TransactionConflictException", "Transaction is ongoing for the item")
	case throttleFault:
		if op == "TransactWriteItems" && rand.IntN(2) == 0 {
			cancelTransaction(w, body, "ThrottlingError", "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly.", false)
			return
		}
		if rand.IntN(2) == 0 {
			writeAPIError(w, http.StatusBadRequest, "ProvisionedThroughputExceededException", "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.")
			return
		}
		writeAPIError(w, http.StatusBadRequest, "ThrottlingException", "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly.")
	default:
		writeAPIError(w, http.StatusInternalServerError, "InternalServerError", "Internal server error")
	}
}

// cancelTransaction answers TransactionCanceledException with one reason per
// item of the request, as DynamoDB does: code for one item (one) or for
// every item, None for the rest.
func cancelTransaction(w http.ResponseWriter, body []byte, code, message string, one bool) {
	var in struct{ TransactItems []json.RawMessage }
	_ = json.Unmarshal(body, &in)
	n := max(len(in.TransactItems), 1)
	at := rand.IntN(n)
	type reason struct {
		Code    string
		Message string `json:",omitempty"`
	}
	reasons := make([]reason, n)
	codes := make([]string, n)
	for i := range reasons {
		reasons[i] = reason{Code: "None"}
		if !one || i == at {
			reasons[i] = reason{Code: code, Message: message}
		}
		codes[i] = reasons[i].Code
	}
	out, _ := json.Marshal(map[string]any{
		"__type":              "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
		"Message":             "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]",
		"CancellationReasons": reasons,
	})
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(out)
}

// loseAnswer replaces a served write's answer: an InternalServerError, or a
// connection closed without any answer.
func loseAnswer(w http.ResponseWriter) {
	if rand.IntN(2) == 0 {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
	}
	writeAPIError(w, http.StatusInternalServerError, "InternalServerError", "Internal server error")
}
