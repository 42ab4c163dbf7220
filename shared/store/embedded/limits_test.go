package embedded_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// The embedded server refuses what DynamoDB refuses, with DynamoDB's
// exception and wording, so code tested here fails where it would on AWS.
// These tests talk to it with the raw SDK client, below the store.

const maxItem = 400 * 1024

// rawClient returns an SDK client on a fresh embedded server and the name of
// a table with xqtour's key schema (PK, SK).
func rawClient(t *testing.T) (*dynamodb.Client, string) {
	t.Helper()
	db, table, _ := rawServer(t)
	return db, table
}

// rawServer is rawClient that also returns the server.
func rawServer(t *testing.T) (*dynamodb.Client, string, *embedded.Server) {
	t.Helper()
	_, cfg, srv := storetest.Start(t)
	awsCfg, err := config.LoadDefaultConfig(context.Background(), config.WithRegion("us-east-1"),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("local", "local", "")))
	if err != nil {
		t.Fatal(err)
	}
	db := dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) {
		o.BaseEndpoint = aws.String(srv.URL)
		o.DisableValidateResponseChecksum = true
	})
	return db, cfg.Table, srv
}

// sized returns an item of exactly size bytes as DynamoDB counts them.
func sized(pk, sk string, size int) map[string]types.AttributeValue {
	pad := size - (len("PK") + len(pk) + len("SK") + len(sk) + len("doc"))
	return map[string]types.AttributeValue{
		"PK":  &types.AttributeValueMemberS{Value: pk},
		"SK":  &types.AttributeValueMemberS{Value: sk},
		"doc": &types.AttributeValueMemberB{Value: make([]byte, pad)},
	}
}

func itemKey(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: pk},
		"SK": &types.AttributeValueMemberS{Value: sk},
	}
}

// wantValidation fails unless err is a ValidationException whose message contains msg.
func wantValidation(t *testing.T, err error, msg string) {
	t.Helper()
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "ValidationException" || !strings.Contains(api.ErrorMessage(), msg) {
		t.Fatalf("got %v, want ValidationException %q", err, msg)
	}
}

func exists(t *testing.T, db *dynamodb.Client, table, pk, sk string) bool {
	t.Helper()
	out, err := db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: &table, Key: itemKey(pk, sk), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item != nil
}

func TestLimits_ItemOver400KBIsRefusedOnEveryWritePath(t *testing.T) {
	db, table := rawClient(t)
	ctx := context.Background()
	const tooLarge = "Item size has exceeded the maximum allowed size"

	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: sized("p", "at", maxItem)}); err != nil {
		t.Fatalf("an item of exactly 400 KB: %v", err)
	}
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: sized("p", "put", maxItem+1)})
	wantValidation(t, err, tooLarge)

	_, err = db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {
		{PutRequest: &types.PutRequest{Item: sized("p", "batch-small", 100)}},
		{PutRequest: &types.PutRequest{Item: sized("p", "batch", maxItem+1)}},
	}}})
	wantValidation(t, err, tooLarge)

	// A transacted Put's size is known from the request: a plain
	// ValidationException before the transaction runs, not a cancellation.
	_, err = db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: &table, Item: sized("p", "tx-small", 100)}},
		{Put: &types.Put{TableName: &table, Item: sized("p", "tx", maxItem+1)}},
	}})
	wantValidation(t, err, tooLarge)

	// An update's size is known only once it ran: UpdateItem refuses and
	// keeps the item as it was; a transacted Update cancels the transaction.
	big := &types.AttributeValueMemberB{Value: make([]byte, maxItem)}
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: &table, Key: itemKey("p", "at"),
		UpdateExpression: aws.String("SET extra = :b"), ExpressionAttributeValues: map[string]types.AttributeValue{":b": big}})
	wantValidation(t, err, "Item size to update has exceeded the maximum allowed size")
	got, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &table, Key: itemKey("p", "at"), ConsistentRead: aws.Bool(true)})
	if err != nil || got.Item["extra"] != nil {
		t.Fatalf("the refused update changed the item: %v", err)
	}
	_, err = db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: &table, Item: sized("p", "tx-before", 100)}},
		{Update: &types.Update{TableName: &table, Key: itemKey("p", "at"),
			UpdateExpression: aws.String("SET extra = :b"), ExpressionAttributeValues: map[string]types.AttributeValue{":b": big}}},
	}})
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) || len(tce.CancellationReasons) != 2 || aws.ToString(tce.CancellationReasons[1].Code) != "ValidationError" ||
		aws.ToString(tce.CancellationReasons[0].Code) != "None" {
		t.Fatalf("got %v, want TransactionCanceledException [None, ValidationError]", err)
	}
	for _, sk := range []string{"put", "batch-small", "batch", "tx-small", "tx", "tx-before"} {
		if exists(t, db, table, "p", sk) {
			t.Errorf("%s was written by a refused request", sk)
		}
	}
}

func TestLimits_TransactionOver100ActionsIsRefused(t *testing.T) {
	db, table := rawClient(t)
	var items []types.TransactWriteItem
	for i := range 101 {
		items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: &table, Item: sized("p", fmt.Sprint(i), 100)}})
	}
	_, err := db.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{TransactItems: items})
	wantValidation(t, err, "at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100")
	if exists(t, db, table, "p", "0") {
		t.Error("a refused transaction wrote its first item")
	}
	if _, err := db.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{TransactItems: items[:100]}); err != nil {
		t.Fatalf("100 actions: %v", err)
	}
}

func TestLimits_TransactionOver4MBIsRefused(t *testing.T) {
	db, table := rawClient(t)
	var items []types.TransactWriteItem
	for i := range 11 { // 11 × 400 KB = 4.3 MiB
		items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: &table, Item: sized("p", fmt.Sprint(i), maxItem)}})
	}
	_, err := db.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{TransactItems: items})
	wantValidation(t, err, "4 MB")
	if exists(t, db, table, "p", "0") {
		t.Error("a refused transaction wrote its first item")
	}
	if _, err := db.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{TransactItems: items[:10]}); err != nil {
		t.Fatalf("10 × 400 KB (under 4 MiB): %v", err)
	}
}

func TestLimits_BatchWriteOver25IsRefused(t *testing.T) {
	db, table := rawClient(t)
	var reqs []types.WriteRequest
	for i := range 26 {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: sized("p", fmt.Sprint(i), 100)}})
	}
	_, err := db.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
	wantValidation(t, err, "Member must have length less than or equal to 25")
	if exists(t, db, table, "p", "0") {
		t.Error("a refused batch wrote its first item")
	}
}

func TestLimits_BatchGetOver100KeysIsRefusedAndAnswersAtMost16MB(t *testing.T) {
	db, table := rawClient(t)
	ctx := context.Background()
	var keys []map[string]types.AttributeValue
	for i := range 101 {
		keys = append(keys, itemKey("p", fmt.Sprintf("%03d", i)))
	}
	_, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: keys}}})
	wantValidation(t, err, "Too many items requested for the BatchGetItem call")

	// 45 items of 400 KB are 17.6 MiB: one answer holds 40 of them (16 MiB),
	// the other keys come back unprocessed and a second call reads them.
	const n = 45
	for i := range n {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: sized("p", fmt.Sprintf("%03d", i), maxItem)}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: keys[:n]}}})
	if err != nil {
		t.Fatal(err)
	}
	got, left := len(out.Responses[table]), len(out.UnprocessedKeys[table].Keys)
	if got != 40 || left != n-40 {
		t.Fatalf("answered %d items and %d unprocessed keys, want 40 and %d", got, left, n-40)
	}
	out, err = db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: out.UnprocessedKeys})
	if err != nil || len(out.Responses[table]) != n-40 || len(out.UnprocessedKeys) != 0 {
		t.Fatalf("second call: %d items, %d tables unprocessed, %v", len(out.Responses[table]), len(out.UnprocessedKeys), err)
	}
}

func TestLimits_QueryAndScanPagesStopAt1MB(t *testing.T) {
	db, table := rawClient(t)
	ctx := context.Background()
	for i := range 5 { // 5 × 300,000 bytes: pages of 3 (900,000 ≤ 1 MiB) and 2
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: &table, Item: sized("p", fmt.Sprint(i), 300_000)}); err != nil {
			t.Fatal(err)
		}
	}
	q := &dynamodb.QueryInput{TableName: &table, KeyConditionExpression: aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "p"}}}
	page, err := db.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 3 || page.LastEvaluatedKey == nil {
		t.Fatalf("first page: %d items, LastEvaluatedKey %v; want 3 and a key", len(page.Items), page.LastEvaluatedKey)
	}
	q.ExclusiveStartKey = page.LastEvaluatedKey
	if page, err = db.Query(ctx, q); err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 2 || page.LastEvaluatedKey != nil {
		t.Fatalf("second page: %d items, LastEvaluatedKey %v; want the last 2 and no key", len(page.Items), page.LastEvaluatedKey)
	}
	var scanned []int
	p := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: &table})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		scanned = append(scanned, len(page.Items))
	}
	if fmt.Sprint(scanned) != "[3 2]" {
		t.Fatalf("scan pages %v, want [3 2]", scanned)
	}
}
