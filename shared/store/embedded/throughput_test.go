package embedded_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/xqtour/xqtour/shared/store/embedded"
)

// limitedServer is a server with DynamoDB's partition limits on and their
// clock held at a fixed instant (buckets refill only when the test moves it).
func limitedServer(t *testing.T) (*dynamodb.Client, string, *embedded.Server, *time.Time) {
	t.Helper()
	db, table, srv := rawServer(t)
	srv.LimitPartitions(embedded.DefaultPartitionLimits)
	now := time.Unix(1_700_000_000, 0)
	embedded.HoldPartitionClock(srv, &now)
	return db, table, srv, &now
}

// noRetry shows every answer DynamoDB gives: the SDK's retries are off.
func noRetry(o *dynamodb.Options) { o.RetryMaxAttempts = 1 }

// answered calls f again while it fails without an answer from the server
// (a connection the SDK saw closed under a large request, which the SDK's
// own retries would have hidden), so that what it returns is the server's answer.
func answered(f func() error) error {
	var err error
	for range 5 {
		var api smithy.APIError
		if err = f(); err == nil || errors.As(err, &api) {
			return err
		}
	}
	return err
}

// wantKeyRangeThrottle fails unless err is DynamoDB's hot-key throttle with reason.
func wantKeyRangeThrottle(t *testing.T, err error, reason string) {
	t.Helper()
	var pte *types.ProvisionedThroughputExceededException
	if !errors.As(err, &pte) {
		t.Fatalf("got %v, want ProvisionedThroughputExceededException", err)
	}
	if len(pte.ThrottlingReasons) != 1 || aws.ToString(pte.ThrottlingReasons[0].Reason) != reason {
		t.Fatalf("throttling reasons %+v, want %s", pte.ThrottlingReasons, reason)
	}
}

// A partition key takes 1,000 write units a second: ten puts of a 100 KB
// item (100 units each) within one instant, and the next is refused
// with DynamoDB's error, changing nothing; a second later it is served.
func TestPartitionLimits_HotKeyWritesAreThrottled(t *testing.T) {
	db, table, srv, now := limitedServer(t)
	ctx := context.Background()
	put := func(pk, sk string) error {
		return answered(func() error {
			_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: sized(pk, sk, 100*1024)}, noRetry)
			return err
		})
	}
	var err error
	n := 0
	for ; err == nil; n++ {
		if n > 10 {
			t.Fatal("eleven puts of 100 KB at one instant were never throttled")
		}
		err = put("hot", fmt.Sprint(n))
	}
	// Refused only once the second's 1,000 units were used (ten puts, fewer
	// when an answer lost on the connection made answered put one again).
	wantKeyRangeThrottle(t, err, "TableWriteKeyRangeThroughputExceeded")
	if u := srv.PartitionUse("hot"); u.PeakWrite != 1000 {
		t.Fatalf("refused after %v units, want 1,000", u.PeakWrite)
	}
	refusedSK := fmt.Sprint(n - 1)
	*now = now.Add(time.Second)
	if exists(t, db, table, "hot", refusedSK) {
		t.Fatal("the throttled put was applied")
	}
	if err := put("hot", refusedSK); err != nil {
		t.Fatalf("a second later: %v", err)
	}
	st := srv.Partitions()
	if st.ThrottledWrites != 1 || st.ThrottledReads != 0 {
		t.Errorf("throttled %d writes, %d reads; want 1, 0", st.ThrottledWrites, st.ThrottledReads)
	}
	if len(st.Hottest) == 0 || st.Hottest[0].PK != "hot" || st.Hottest[0].LargestWrite != 100 || st.Hottest[0].Throttled != 1 {
		t.Errorf("hottest %+v, want hot at 1,000 units in a second, 100 at most in one request, throttled once", st.Hottest)
	}
}

// The same volume spread over many partition keys is never throttled:
// 20,000 write units at one instant over 200 keys.
func TestPartitionLimits_SpreadWorkloadIsNotThrottled(t *testing.T) {
	db, table, srv, _ := limitedServer(t)
	ctx := context.Background()
	for i := range 200 {
		if err := answered(func() error {
			_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: sized(fmt.Sprintf("G#%03d", i), "GAME", 100*1024)}, noRetry)
			return err
		}); err != nil {
			t.Fatalf("put %d: %v", i, err)
		}
	}
	for i := range 200 {
		if err := answered(func() error {
			_, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: itemKey(fmt.Sprintf("G#%03d", i), "GAME"), ConsistentRead: aws.Bool(true)}, noRetry)
			return err
		}); err != nil {
			t.Fatalf("get %d: %v", i, err)
		}
	}
	// (A put whose answer the SDK saw lost is made again, so a key may show 200.)
	if st := srv.Partitions(); st.ThrottledWrites != 0 || st.ThrottledReads != 0 || st.Hottest[0].PeakWrite > 200 {
		t.Errorf("spread workload: %+v", st)
	}
}

// Units are DynamoDB's: a transaction costs twice, an update the larger
// of the old and the new item, a strongly consistent read a unit per 4 KB
// and an eventually consistent one half that, a Query its page's sizes
// added up; and a partition is refused only once it has served its second's
// worth. (An answer the SDK saw lost on the connection is retried by
// answered and billed twice, as DynamoDB bills a retried request, so the
// counts below are "at least".)
func TestPartitionLimits_UnitsAreDynamoDBs(t *testing.T) {
	db, table, srv, now := limitedServer(t)
	ctx := context.Background()
	tick := func() { *now = now.Add(time.Second) }
	put := func(pk, sk string, size int) {
		t.Helper()
		if err := answered(func() error {
			_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: sized(pk, sk, size)}, noRetry)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}

	// Three 100 KB puts in one transaction: 600 units (singly, 300), so
	// a second one at the same instant (400 left) is refused.
	tx := func(sk string) error {
		var items []types.TransactWriteItem
		for i := range 3 {
			items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: &table, Item: sized("tx", fmt.Sprint(sk, i), 100*1024)}})
		}
		return answered(func() error {
			_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items}, noRetry)
			return err
		})
	}
	if err := tx("a"); err != nil {
		t.Fatal(err)
	}
	if u := srv.PartitionUse("tx"); u.LargestWrite != 600 {
		t.Errorf("a transaction of three 100 KB puts cost %v units, want 600", u.LargestWrite)
	}
	var tce *types.TransactionCanceledException
	if err := tx("b"); !errors.As(err, &tce) || aws.ToString(tce.CancellationReasons[0].Code) != "ThrottlingError" {
		t.Fatalf("second transaction: %v, want TransactionCanceledException with ThrottlingError", err)
	}
	if exists(t, db, table, "tx", "b0") {
		t.Fatal("the throttled transaction was applied")
	}
	tick()

	// An update that empties a 100 KB item is billed on the old image.
	put("u", "x", 100*1024)
	tick()
	if err := answered(func() error {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &table, Key: itemKey("u", "x"), UpdateExpression: aws.String("REMOVE doc")}, noRetry)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if u := srv.PartitionUse("u"); u.LargestWrite != 100 {
		t.Errorf("an update of a 100 KB item cost %v units, want 100", u.LargestWrite)
	}

	// Reads of a 100 KB item: 25 units strongly consistent, 12.5 not;
	// refused only after the partition's 3,000 units of the second.
	put("r", "x", 100*1024)
	tick()
	get := func(consistent bool) error {
		return answered(func() error {
			_, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: itemKey("r", "x"), ConsistentRead: aws.Bool(consistent)}, noRetry)
			return err
		})
	}
	for _, consistent := range []bool{true, false} {
		want := 25.0
		if !consistent {
			want = 12.5
		}
		var err error
		for n := 0; err == nil; n++ {
			if n > 300 {
				t.Fatalf("consistent %v: 300 reads of 100 KB in one second were never throttled", consistent)
			}
			err = get(consistent)
		}
		wantKeyRangeThrottle(t, err, "TableReadKeyRangeThroughputExceeded")
		if u := srv.PartitionUse("r"); u.LargestRead != 25 || u.PeakRead < 3000-want || u.PeakRead > 3000 {
			t.Errorf("consistent %v: largest read %v units (want 25), refused at %v of 3,000", consistent, u.LargestRead, u.PeakRead)
		}
		tick()
	}

	// A Query of ten 100 KB items is one 1,000 KB page: 250 units. (Each
	// put at its own instant: ten at once are the key's whole second, and
	// a put made again after a lost answer would be refused.)
	for i := range 10 {
		put("q", fmt.Sprint(i), 100*1024)
		tick()
	}
	tick()
	if err := answered(func() error {
		_, err := db.Query(ctx, &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "q"}}, ConsistentRead: aws.Bool(true)}, noRetry)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if u := srv.PartitionUse("q"); u.LargestRead != 250 {
		t.Errorf("a Query of ten 100 KB items cost %v units, want 250", u.LargestRead)
	}
}

// With the SDK's own retries (and a real clock) a hot key's writes all
// land: the throttles are absorbed by back-off, as on DynamoDB.
func TestPartitionLimits_SDKRetriesAbsorbThrottles(t *testing.T) {
	db, table, srv := rawServer(t)
	srv.LimitPartitions(embedded.DefaultPartitionLimits)
	ctx := context.Background()
	for i := range 15 {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: sized("hot", fmt.Sprint(i), 200*1024)},
			func(o *dynamodb.Options) { o.RetryMaxAttempts = 10 }); err != nil {
			t.Fatalf("put %d: %v", i, err)
		}
	}
	if st := srv.Partitions(); st.ThrottledWrites == 0 {
		t.Errorf("3,000 units on one key in well under 3 s were never throttled: %+v", st)
	}
}

func TestParseFaults_Partition(t *testing.T) {
	for spec, want := range map[string]embedded.PartitionLimits{
		"partition":              embedded.DefaultPartitionLimits,
		"partition=on":           embedded.DefaultPartitionLimits,
		"partition=500/1500":     {WriteUnits: 500, ReadUnits: 1500},
		"throttle=0.1,partition": embedded.DefaultPartitionLimits,
	} {
		f, err := embedded.ParseFaults(spec)
		if err != nil || f.Partition != want {
			t.Errorf("%q: %+v, %v; want %+v", spec, f.Partition, err, want)
		}
		if back, err := embedded.ParseFaults(f.String()); err != nil || back != f {
			t.Errorf("%q: round trip %q: %+v %v", spec, f.String(), back, err)
		}
	}
	for _, bad := range []string{"partition=fast", "partition=1000", "partition=0/3000", "partition=-1/2"} {
		if _, err := embedded.ParseFaults(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
