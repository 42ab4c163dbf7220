package embedded_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/xqtour/xqtour/shared/store/embedded"
)

func TestParseFaults(t *testing.T) {
	f, err := embedded.ParseFaults("conflict=0.05, throttle=0.05,internal=0.03,ambiguous=0.03,latency=0-30ms")
	want := embedded.Faults{Conflict: 0.05, Throttle: 0.05, Internal: 0.03, Ambiguous: 0.03, LatencyMax: 30 * time.Millisecond}
	if err != nil || f != want {
		t.Fatalf("got %+v, %v; want %+v", f, err, want)
	}
	if got := f.String(); got != "conflict=0.05,throttle=0.05,internal=0.03,ambiguous=0.03,latency=0s-30ms" {
		t.Errorf("String = %q", got)
	}
	if back, err := embedded.ParseFaults(f.String()); err != nil || back != f {
		t.Errorf("round trip: %+v %v", back, err)
	}
	if f, err := embedded.ParseFaults("latency=5ms"); err != nil || f.LatencyMin != 5*time.Millisecond || f.LatencyMax != 5*time.Millisecond {
		t.Errorf("fixed latency: %+v %v", f, err)
	}
	if f, err := embedded.ParseFaults(""); err != nil || f != (embedded.Faults{}) || f.String() != "none" {
		t.Errorf("empty: %+v %v", f, err)
	}
	for _, bad := range []string{"conflict", "conflict=2", "conflict=-0.1", "slow=0.1", "latency=30ms-5ms", "latency=fast", "throttle=x"} {
		if _, err := embedded.ParseFaults(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Each fault reaches the SDK as DynamoDB's own error: its HTTP status, type
// and, for a transaction, one cancellation reason per item. The SDK's own
// retries are off here, to see each answer.
func TestFaults_DynamoDBsErrors(t *testing.T) {
	db, table, srv := rawServer(t)
	ctx := context.Background()
	once := func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 }
	condPut := func(sk string) error {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemKey("f", sk),
			ConditionExpression: aws.String("attribute_not_exists(PK)")}, once)
		return err
	}
	tx := func() error {
		_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(table), Item: itemKey("tx", "1")}},
			{Put: &types.Put{TableName: aws.String(table), Item: itemKey("tx", "2")}},
			{Put: &types.Put{TableName: aws.String(table), Item: itemKey("tx", "3")}},
		}}, once)
		return err
	}
	get := func() error {
		_, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: itemKey("f", "1")}, once)
		return err
	}
	code := func(err error) string {
		var api smithy.APIError
		if errors.As(err, &api) {
			return api.ErrorCode()
		}
		return ""
	}

	srv.SetFaults(embedded.Faults{Conflict: 1})
	if c := code(condPut("1")); c != "TransactionConflictException" {
		t.Errorf("conflict, conditional PutItem: %q", c)
	}
	var tce *types.TransactionCanceledException
	if err := tx(); !errors.As(err, &tce) || len(tce.CancellationReasons) != 3 {
		t.Errorf("conflict, TransactWriteItems: %v", err)
	} else {
		n := 0
		for _, r := range tce.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "TransactionConflict":
				n++
			case "None":
			default:
				t.Errorf("reason %q", aws.ToString(r.Code))
			}
		}
		if n != 1 {
			t.Errorf("%d TransactionConflict reasons, want 1: %v", n, tce.CancellationReasons)
		}
	}
	if err := get(); err != nil {
		t.Errorf("conflict, GetItem (never conflicts): %v", err)
	}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: itemKey("f", "u")}, once); err != nil {
		t.Errorf("conflict, unconditional PutItem (never conflicts): %v", err)
	}

	srv.SetFaults(embedded.Faults{Throttle: 1})
	seen := map[string]bool{}
	for range 40 {
		seen[code(get())] = true
		if err := tx(); errors.As(err, &tce) {
			for _, r := range tce.CancellationReasons {
				if aws.ToString(r.Code) != "ThrottlingError" {
					t.Errorf("throttled transaction, reason %q", aws.ToString(r.Code))
				}
			}
			seen["tx:ThrottlingError"] = true
		} else {
			seen["tx:"+code(err)] = true
		}
	}
	for _, want := range []string{"ProvisionedThroughputExceededException", "ThrottlingException", "tx:ThrottlingError", "tx:ProvisionedThroughputExceededException"} {
		if !seen[want] {
			t.Errorf("throttle: never answered %s (answered %v)", want, seen)
		}
	}

	srv.SetFaults(embedded.Faults{Internal: 1})
	if c := code(condPut("2")); c != "InternalServerError" {
		t.Errorf("internal: %q", c)
	}

	// Ambiguous: applied, then a 500 or a closed connection.
	srv.SetFaults(embedded.Faults{Ambiguous: 1})
	closed, failed := 0, 0
	for i := range 20 {
		err := condPut("a" + string(rune('a'+i)))
		switch {
		case code(err) == "InternalServerError":
			failed++
		case err != nil && strings.Contains(err.Error(), "EOF"):
			closed++
		default:
			t.Errorf("ambiguous: %v", err)
		}
	}
	if closed == 0 || failed == 0 {
		t.Errorf("ambiguous answers: %d closed connections, %d 500s; want both", closed, failed)
	}
	if err := get(); err != nil {
		t.Errorf("ambiguous, GetItem (reads are never ambiguous): %v", err)
	}
	srv.SetFaults(embedded.Faults{})
	for i := range 20 {
		if exists(t, db, table, "f", "a"+string(rune('a'+i))) == false {
			t.Errorf("ambiguous write %d not applied", i)
		}
	}
	if got := srv.Injected(); got.Conflict != 2 || got.Throttle != 80 || got.Internal != 1 || got.Ambiguous != 20 {
		t.Errorf("injected %+v, want 2 conflicts, 80 throttles, 1 internal, 20 ambiguous", got)
	}
	if err := condPut("3"); err != nil {
		t.Errorf("faults off: %v", err)
	}
}

// Latency delays each request by a time within its range.
func TestFaults_Latency(t *testing.T) {
	db, table, srv := rawServer(t)
	srv.SetFaults(embedded.Faults{LatencyMin: 20 * time.Millisecond, LatencyMax: 30 * time.Millisecond})
	start := time.Now()
	for range 5 {
		if _, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(table), Key: itemKey("x", "y")}); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("5 requests took %v, want at least 100 ms", d)
	}
}

// TransactWriteItems keeps DynamoDB's idempotency: the same
// ClientRequestToken again is answered with the first success and applies
// nothing (here a condition that would now fail), another request under it
// is IdempotentParameterMismatchException; the SDK's own retry of a
// transaction whose answer was lost is thereby answered as the success it was.
func TestTransact_ClientRequestToken(t *testing.T) {
	db, table, srv := rawServer(t)
	ctx := context.Background()
	in := func(token, sk string) *dynamodb.TransactWriteItemsInput {
		return &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(token), TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(table), Item: itemKey("tok", sk), ConditionExpression: aws.String("attribute_not_exists(PK)")}},
		}}
	}
	for i := range 2 {
		if _, err := db.TransactWriteItems(ctx, in("token-1", "a")); err != nil {
			t.Fatalf("attempt %d with one token: %v", i+1, err)
		}
	}
	if _, err := db.TransactWriteItems(ctx, in("token-2", "a")); err == nil {
		t.Fatal("another token: the condition passed twice")
	}
	_, err := db.TransactWriteItems(ctx, in("token-1", "b"))
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "IdempotentParameterMismatchException" {
		t.Fatalf("another request under a used token: %v", err)
	}
	// The first answer lost: the SDK's retry carries its token and gets the first success.
	var calls atomic.Int32
	srv.Intercept(func(op string, _ []byte) embedded.Fault {
		if calls.Add(1) == 1 {
			srv.SetFaults(embedded.Faults{Ambiguous: 1})
		} else {
			srv.SetFaults(embedded.Faults{})
		}
		return embedded.Serve
	})
	defer srv.Intercept(nil)
	if _, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(table), Item: itemKey("tok", "c"), ConditionExpression: aws.String("attribute_not_exists(PK)")}},
	}}); err != nil {
		t.Fatalf("a transaction whose first answer was lost: %v", err)
	}
	if calls.Load() != 2 || srv.Injected().Ambiguous != 1 {
		t.Fatalf("%d calls, %d answers lost; want 2 calls, the first lost", calls.Load(), srv.Injected().Ambiguous)
	}
}
