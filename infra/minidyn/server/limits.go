package server

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/truora/minidyn/core"
)

// xqtour patch: DynamoDB's request limits in one place, each refused with
// the exception and wording DynamoDB answers, so that code tested against
// the embedded server fails here where it would fail on AWS. The size rules
// (core.ItemSize, core.MaxItemBytes, core.MaxPageBytes) are in core/size.go.

const (
	// maxTransactItems is how many actions one TransactWriteItems may hold.
	maxTransactItems = 100
	// maxTransactBytes is the aggregate size of a transaction's items: 4 MB.
	maxTransactBytes = 4 << 20
	// maxBatchGetBytes is how much one BatchGetItem answers: 16 MB; the keys
	// past it come back as UnprocessedKeys.
	maxBatchGetBytes = 16 << 20
)

// DynamoDB's wording: a put's size is known from the request and refused
// before anything runs; an update's is known only once it ran.
const (
	msgItemTooLarge   = "Item size has exceeded the maximum allowed size"
	msgUpdateTooLarge = "Item size to update has exceeded the maximum allowed size"
)

func validationError(msg string) error {
	return &smithy.GenericAPIError{Code: "ValidationException", Message: msg}
}

// checkPutSize refuses an item over 400 KB.
func checkPutSize(item map[string]*AttributeValue) error {
	if core.ItemSize(mapAttributeValueMapToTypes(item)) > core.MaxItemBytes {
		return validationError(msgItemTooLarge)
	}

	return nil
}

// checkUpdatedSize refuses an update that leaves an item over 400 KB.
func checkUpdatedSize(table *core.Table, key map[string]*AttributeValue) error {
	k, err := table.Key(mapAttributeValueMapToTypes(key))
	if err != nil {
		return nil
	}

	if core.ItemSize(table.Data[k]) > core.MaxItemBytes {
		return validationError(msgUpdateTooLarge)
	}

	return nil
}

// validateTransactLimits refuses, before anything runs, a transaction over
// 100 actions, a Put over 400 KB, or items over 4 MB in all (a Put counts
// its item, the other actions their key).
func validateTransactLimits(items []TransactWriteItem) error {
	if len(items) > maxTransactItems {
		return validationError(fmt.Sprintf("1 validation error detected: Value '[%d actions]' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to %d", len(items), maxTransactItems))
	}

	total := 0

	for _, it := range items {
		var size int

		switch {
		case it.Put != nil:
			size = core.ItemSize(mapAttributeValueMapToTypes(it.Put.Item))
			if size > core.MaxItemBytes {
				return validationError(msgItemTooLarge)
			}
		case it.Update != nil:
			size = core.ItemSize(mapAttributeValueMapToTypes(it.Update.Key))
		case it.Delete != nil:
			size = core.ItemSize(mapAttributeValueMapToTypes(it.Delete.Key))
		case it.ConditionCheck != nil:
			size = core.ItemSize(mapAttributeValueMapToTypes(it.ConditionCheck.Key))
		}

		total += size
	}

	if total > maxTransactBytes {
		return validationError(fmt.Sprintf("Transaction size exceeded: the items of this transaction are %d bytes, over the maximum allowed size of 4 MB", total))
	}

	return nil
}

// validateBatchWriteLimits refuses a BatchWriteItem of more than 25
// requests, or with a Put over 400 KB, before anything is written.
func validateBatchWriteLimits(input *BatchWriteItemInput) error {
	count := 0

	for table, reqs := range input.RequestItems {
		count += len(reqs)
		if len(reqs) > batchWriteItemRequestsLimit {
			return validationError(fmt.Sprintf("1 validation error detected: Value '{%s=[%d requests]}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to %d, Member must have length greater than or equal to 1]", table, len(reqs), batchWriteItemRequestsLimit))
		}

		for _, req := range reqs {
			if req.PutRequest != nil {
				if err := checkPutSize(req.PutRequest.Item); err != nil {
					return err
				}
			}
		}
	}

	if count > batchWriteItemRequestsLimit {
		return validationError("Too many items requested for the BatchWriteItem call")
	}

	return nil
}

// transactionCancelled is DynamoDB's answer to a transaction one of whose
// actions failed validation while it ran: the reasons are positional, None
// for the others.
func transactionCancelled(i, n int, code, msg string) error {
	reasons := make([]ddbtypes.CancellationReason, n)
	codes := make([]string, n)

	for j := range reasons {
		reasons[j] = ddbtypes.CancellationReason{Code: aws.String("None")}
		codes[j] = "None"
	}

	reasons[i] = ddbtypes.CancellationReason{Code: aws.String(code), Message: aws.String(msg)}
	codes[i] = code

	return &ddbtypes.TransactionCanceledException{
		Message:             aws.String("Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]"),
		CancellationReasons: reasons,
	}
}

// batchGetBudget is what is left of one BatchGetItem's 16 MB answer.
type batchGetBudget struct{ left int }

// take reports whether item still fits in the answer, and counts it.
func (b *batchGetBudget) take(item map[string]*AttributeValue) bool {
	size := core.ItemSize(mapAttributeValueMapToTypes(item))
	if size > b.left {
		b.left = -1 // once over, every later key is unprocessed too: keys stay in order

		return false
	}

	b.left -= size

	return true
}

// xqtour patch: DynamoDB refuses a BatchGetItem or BatchWriteItem that names
// the same item twice in one table (two keys, two writes, or a put and a
// delete of one key), before doing anything, with this ValidationException.
const duplicateKeysMessage = "Provided list of item keys contains duplicates"

// duplicateKeys reports whether keys (items or keys of one table) name an
// item twice, comparing only the table's key attributes; a table that does
// not exist is left to the operation's own error.
func (c *Client) duplicateKeys(tableName string, keys []map[string]*AttributeValue) error {
	table, ok := c.tables[tableName]
	if !ok || len(keys) < 2 {
		return nil
	}

	names := []string{table.KeySchema.HashKey}
	if table.KeySchema.RangeKey != "" {
		names = append(names, table.KeySchema.RangeKey)
	}

	seen := make(map[string]bool, len(keys))

	for _, k := range keys {
		parts := make([]*AttributeValue, len(names))
		for i, n := range names {
			parts[i] = k[n]
		}

		id, err := json.Marshal(parts)
		if err != nil {
			return err
		}

		if seen[string(id)] {
			return &smithy.GenericAPIError{Code: "ValidationException", Message: duplicateKeysMessage}
		}

		seen[string(id)] = true
	}

	return nil
}
