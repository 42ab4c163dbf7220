package embedded_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// Two places where the embedded server was more lenient than DynamoDB, found
// by comparing it with another implementation: a table was usable as soon as
// CreateTable answered, and a batch could name one item twice.

// CreateTable answers CREATING; until the table is ACTIVE, reads and writes
// answer ResourceNotFoundException, as DynamoDB's do; DescribeTable then
// says ACTIVE and the table serves.
func TestCreateTable_CreatingThenActive(t *testing.T) {
	db, _, srv := rawServer(t)
	// Long enough that the calls below surely come before it ends, even on
	// a loaded machine; the default (TableActivationDelay) is milliseconds.
	const delay = 2 * time.Second
	srv.SetTableActivationDelay(delay)
	ctx := context.Background()
	const name = "fresh"
	out, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if st := out.TableDescription.TableStatus; st != types.TableStatusCreating {
		t.Fatalf("CreateTable answered %q, want CREATING", st)
	}
	desc, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil || desc.Table.TableStatus != types.TableStatusCreating {
		t.Fatalf("DescribeTable at once: %v %v, want CREATING", desc, err)
	}
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: itemKey("a", "b")})
	var nf *types.ResourceNotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("PutItem on a CREATING table: %v, want ResourceNotFoundException", err)
	}
	time.Sleep(delay)
	desc, err = db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil || desc.Table.TableStatus != types.TableStatusActive {
		t.Fatalf("DescribeTable after %v: %v %v, want ACTIVE", delay, desc, err)
	}
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: itemKey("a", "b")}); err != nil {
		t.Fatalf("PutItem on the ACTIVE table: %v", err)
	}
}

// Store.CreateTable returns only once the table is ACTIVE: the first write
// after it succeeds, on a new table and on one another process is still
// creating.
func TestStoreCreateTable_WaitsForActive(t *testing.T) {
	srv, err := embedded.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.SetTableActivationDelay(300 * time.Millisecond) // many polls of the waiter
	ctx := context.Background()
	for range 2 { // the second finds the table, ACTIVE
		st, err := store.Open(ctx, store.Config{Table: "waited", Region: "us-east-1", Endpoint: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.CreateTable(ctx); err != nil {
			t.Fatal(err)
		}
		if err := st.Put(ctx, &store.Record{PK: "T#x", SK: store.MetaSK, Kind: "t", Doc: []byte("{}")}); err != nil && !errors.Is(err, store.ErrConflict) {
			t.Fatalf("first write after CreateTable: %v", err)
		}
	}
	// Two stores racing to create one table: both return with it ACTIVE.
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			st, err := store.Open(ctx, store.Config{Table: "raced", Region: "us-east-1", Endpoint: srv.URL})
			if err == nil {
				err = st.CreateTable(ctx)
			}
			if err == nil {
				_, err = st.Get(ctx, "T#x", store.MetaSK)
				if errors.Is(err, store.ErrNotFound) {
					err = nil
				}
			}
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("racing CreateTable: %v", err)
		}
	}
}

// BatchGetItem and BatchWriteItem refuse a list naming one item twice with
// DynamoDB's ValidationException and wording, and change nothing; the same
// partition key with another sort key is no duplicate.
func TestBatch_DuplicateKeysRefused(t *testing.T) {
	db, table := rawClient(t)
	ctx := context.Background()
	_, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		table: {Keys: []map[string]types.AttributeValue{itemKey("a", "1"), itemKey("a", "2"), itemKey("a", "1")}},
	}})
	wantValidation(t, err, "Provided list of item keys contains duplicates")
	if _, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		table: {Keys: []map[string]types.AttributeValue{itemKey("a", "1"), itemKey("a", "2"), itemKey("b", "1")}},
	}}); err != nil {
		t.Fatalf("distinct keys: %v", err)
	}
	put := func(pk, sk, v string) types.WriteRequest {
		it := itemKey(pk, sk)
		it["v"] = &types.AttributeValueMemberS{Value: v}
		return types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
	}
	del := func(pk, sk string) types.WriteRequest {
		return types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: itemKey(pk, sk)}}
	}
	for name, reqs := range map[string][]types.WriteRequest{
		"two puts":        {put("w", "1", "x"), put("w", "2", "x"), put("w", "1", "y")},
		"put then delete": {put("w", "1", "x"), del("w", "1")},
		"two deletes":     {del("w", "3"), del("w", "3")},
	} {
		_, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
		wantValidation(t, err, "Provided list of item keys contains duplicates")
		got, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: itemKey("w", "1"), ConsistentRead: aws.Bool(true)})
		if err != nil || got.Item != nil {
			t.Fatalf("%s: a refused batch wrote %v (%v)", name, got.Item, err)
		}
	}
	if _, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		table: {put("w", "1", "x"), put("w", "2", "x"), del("v", "1")},
	}}); err != nil {
		t.Fatalf("distinct writes: %v", err)
	}
}

// The store never sends a duplicate key: GetMany reads a key asked twice once.
func TestGetMany_RepeatedKeys(t *testing.T) {
	st, _, _ := storetest.Start(t)
	ctx := context.Background()
	if err := st.Put(ctx, &store.Record{PK: "T#x", SK: "P#1", Kind: "player", Doc: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	k := store.Key{PK: "T#x", SK: "P#1"}
	got, err := st.GetMany(ctx, k, store.Key{PK: "T#x", SK: "P#2"}, k)
	if err != nil || len(got) != 1 || got[k] == nil {
		t.Fatalf("GetMany with a repeated key: %v %v", got, err)
	}
}
