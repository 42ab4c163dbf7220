// Package deploy derives the function resources of the SAM template
// (template.yaml) from the route table httpapi.Routes (and the scheduled
// DueWork function from its constants), so the deployed API
// serves exactly the routes the code knows, and the CloudFront cache keys on
// exactly the query strings the routes take. The hand-written rest of the
// template (globals, HTTP API, table, outputs) is left as it is; only the
// blocks between the markers are generated (`make template` rewrites them).
package deploy

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/store"
)

// Markers delimit the generated function resources inside template.yaml.
const (
	BeginMarker = "  # BEGIN functions generated from httpapi.Routes by `make template`; do not edit by hand"
	EndMarker   = "  # END functions generated from httpapi.Routes"
)

// LiveFunctions are the functions that serve no HTTP route: Live answers the
// WebSocket API, LiveFanout reads the table's stream. They and the WebSocket
// API are written by hand in template.yaml, outside the generated block, and
// checked by this package's tests.
var LiveFunctions = []string{"Live", "LiveFanout"}

// LiveApiID, LiveStage and LiveStreamID name the WebSocket API, its stage and
// the fan-out's stream event source mapping in template.yaml.
const (
	LiveApiID    = "LiveApi"
	LiveStage    = "live"
	LiveStreamID = "LiveFanoutStream"
)

// FnDueWork is the function that does the work due on events' rounds
// (functions/duework: shared/service's RunDue) on a schedule, serving no
// route; it is generated with the HTTP functions (DueWorkYAML).
const FnDueWork = "DueWork"

// ScheduledFunctions are the functions an EventBridge schedule invokes.
var ScheduledFunctions = []string{FnDueWork}

// DueWorkSchedule is how often DueWork runs: a lineup deadline passed
// (T-3) is drawn within a minute of it. At rest it costs 43,200
// invocations and as many Queries of the (empty) due partition a month —
// about $0.02 of Lambda and DynamoDB (README, "Work due").
const DueWorkSchedule = "rate(1 minute)"

// AllFunctions lists every Lambda function of the template: the HTTP ones
// (httpapi.Functions), LiveFunctions and ScheduledFunctions.
func AllFunctions() []string {
	return slices.Concat(httpapi.Functions, LiveFunctions, ScheduledFunctions)
}

// MemoryMB gives a function a memory size of its own (MB), chosen from
// `make bigevent`'s measurements, where the template's global one (256 MB)
// would be too slow; Lambda gives a function CPU in proportion to its
// memory, a whole vCPU at 1,769 MB. PairRound pairs a 10,000-player round
// (reading the event's players, rounds and results, pairing, writing 5,000
// games): about 1.7 s of CPU at round 11, so with the whole vCPU it stays
// well inside 10 s; at 256 MB the CPU alone would take about 12 s.
// Standings rebuilds its views from the same event (the crosstable up to
// 3 s of CPU at round 11): CPU-bound like the pairing's read. Every other function is one or two store round
// trips and stays at 256 MB.
var MemoryMB = map[string]int{
	httpapi.FnPairRound: 1769,
	httpapi.FnStandings: 1769,
}

// TimeoutS gives a function a timeout of its own (seconds) where the
// template's global one (29 s, under API Gateway's 30 s) would cut short
// the work it does outside a request: PairRound runs big events' pairing
// jobs in asynchronous invocations of itself (functions/pairround), up to
// Lambda's 15 minutes. Its HTTP requests are still answered within API
// Gateway's 30 s, and bounded by the commands' retry budget (12 s).
var TimeoutS = map[string]int{
	httpapi.FnPairRound: 900,
	// DueWork's run begins no new work after 40 s (service.RunDue); a
	// minute lets what it began finish before the next run starts.
	FnDueWork: 60,
}

// ApiID and TableID are the logical ids of the HTTP API and the table that the
// generated functions refer to.
const (
	ApiID   = "Api"
	TableID = "Table"
)

// Dir is the source directory of a function's main package: its logical id in
// lower case under functions/ (SAM's `make build-<LogicalId>` maps it the same way).
func Dir(function string) string { return "functions/" + strings.ToLower(function) }

// RoutesOf returns the routes a function serves, in route-table order.
func RoutesOf(function string) []httpapi.Route {
	var out []httpapi.Route
	for _, rt := range httpapi.Routes {
		if rt.Function == function {
			out = append(out, rt)
		}
	}
	return out
}

// ReadOnly reports whether every route of the function only reads (GET or
// HEAD), so the function gets DynamoDBReadPolicy (and leave to add to
// events' usage counters, usagePolicy). Any other method may write
// (idempotency records are written by every POST, and TransactWriteItems needs
// the CRUD policy), so such a function gets DynamoDBCrudPolicy. A function with
// no routes yet serves nothing and so reads at most.
func ReadOnly(function string) bool {
	for _, rt := range RoutesOf(function) {
		if rt.Method != "GET" && rt.Method != "HEAD" {
			return false
		}
	}
	return true
}

// ViewsStatement is the policy a read-only function adds to its table
// read policy: its public reads store the views they were served from
// (httpapi's views.go) with PutItem, give an event's stamp its epoch with
// UpdateItem and drop a replaced build's chunks with DeleteItem, and IAM's
// leading-keys condition confines all three to the views partitions
// (V#<tid>), so the function still cannot change any event, game or record.
func ViewsStatement() string {
	return fmt.Sprintf(`        - Statement:
            - Effect: Allow
              Action: [dynamodb:PutItem, dynamodb:UpdateItem, dynamodb:DeleteItem]
              Resource: !GetAtt %s.Arn
              Condition:
                ForAllValues:StringLike:
                  dynamodb:LeadingKeys: ["%s*"]
`, TableID, store.ViewPrefix)
}

// DueWorkLeadingKeys are the partitions DueWork works in, and the only
// ones its policy lets it touch: the events' (T#) and their games' (G#),
// their views' stamps (V#, advanced by every event write), the work due
// (W#); and, to read only, the mirrors' read-only marks (Y#: an event
// written on another stack is left to it).
var DueWorkLeadingKeys = []string{store.TournamentPrefix + "*", store.GamePrefix + "*", store.ViewPrefix + "*", store.DuePrefix + "*"}

// DueWorkReadKeys are DueWorkLeadingKeys and the mirrors' marks.
var DueWorkReadKeys = append(slices.Clone(DueWorkLeadingKeys), store.MirrorPrefix+"*")

// DueWorkYAML renders the DueWork function: least privilege on the table
// (reads of its partitions and the marks; item writes — PutItem,
// UpdateItem, DeleteItem, and ConditionCheckItem, which with them is what
// TransactWriteItems asks of IAM — on its partitions only), its timeout,
// and the EventBridge schedule that invokes it.
func DueWorkYAML() string {
	keys := func(ks []string) string { return `["` + strings.Join(ks, `", "`) + `"]` }
	return fmt.Sprintf(`  %s:
    Type: AWS::Serverless::Function
    Metadata:
      BuildMethod: makefile
    Properties:
      CodeUri: .
      Description: xqtour %s (%s) - the work due on events' rounds, on a schedule
      Timeout: %d
      Policies:
        - Statement:
            # The events, games, the due work and the marks, read.
            - Effect: Allow
              Action: [dynamodb:GetItem, dynamodb:BatchGetItem, dynamodb:Query]
              Resource: !GetAtt %s.Arn
              Condition:
                ForAllValues:StringLike:
                  dynamodb:LeadingKeys: %s
            # Lineups, rounds, games, stamps and due items written; nothing else.
            - Effect: Allow
              Action: [dynamodb:PutItem, dynamodb:UpdateItem, dynamodb:DeleteItem, dynamodb:ConditionCheckItem]
              Resource: !GetAtt %s.Arn
              Condition:
                ForAllValues:StringLike:
                  dynamodb:LeadingKeys: %s
      Events:
        EveryMinute:
          Type: Schedule
          Properties:
            Schedule: %s
`, FnDueWork, FnDueWork, Dir(FnDueWork), TimeoutS[FnDueWork], TableID, keys(DueWorkReadKeys), TableID, keys(DueWorkLeadingKeys), DueWorkSchedule)
}

// Method is the API Gateway method of a route: Go patterns without a method
// match every method, which API Gateway calls ANY.
func Method(rt httpapi.Route) string {
	if rt.Method == "" {
		return "ANY"
	}
	return strings.ToUpper(rt.Method)
}

// Path turns a Go 1.22 ServeMux pattern path into API Gateway's route syntax:
// {name} is the same, a trailing {name...} is the greedy {name+}, and {$}
// (exact match) has no counterpart because API Gateway matches exactly anyway.
func Path(pattern string) string {
	p := strings.TrimSuffix(pattern, "{$}")
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	if i := strings.LastIndex(p, "...}"); i >= 0 && i == len(p)-4 {
		p = p[:i] + "+}"
	}
	return p
}

// EventName is the SAM event name of a route: method and path segments in
// CamelCase, letters and digits only (CloudFormation logical-id rules).
func EventName(rt httpapi.Route) string {
	var b strings.Builder
	b.WriteString(camel(strings.ToLower(Method(rt))))
	for _, seg := range strings.FieldsFunc(Path(rt.Path), func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	}) {
		b.WriteString(camel(seg))
	}
	return b.String()
}

func camel(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// CountsUsage reports whether a function needs usagePolicy: it serves API
// routes (whose usage it counts) but only reads, so its table policy does not
// let it write. The Web function serves pages, which count for no event.
func CountsUsage(function string) bool {
	return ReadOnly(function) && function != httpapi.FnWeb && len(RoutesOf(function)) > 0
}

// UsageLeadingKeys is the partition key pattern of the usage counters (the
// only items a read-only function may change): store.UsagePrefix and anything.
const UsageLeadingKeys = store.UsagePrefix + "*"

// usagePolicy lets a function whose routes only read add to events' usage
// counters (store.AddCounters, one UpdateItem) and change nothing else: the
// condition holds it to items whose partition key is a usage partition.
var usagePolicy = `        - Statement:
            # Its share of events' usage counters (GET /tournaments/{tid}/usage): an
            # atomic ADD on U#<tid> items, nothing else.
            - Effect: Allow
              Action: dynamodb:UpdateItem
              Resource: !GetAtt ` + TableID + `.Arn
              Condition:
                ForAllValues:StringLike:
                  dynamodb:LeadingKeys: ["` + UsageLeadingKeys + `"]
`

// FunctionsYAML renders the generated block: one AWS::Serverless::Function per
// entry of httpapi.Functions with its policy and one HttpApi event per route,
// then the scheduled DueWork (DueWorkYAML).
// It fails when two routes share an API Gateway route key or an event name, or
// when a route names a function that httpapi.Functions does not list.
func FunctionsYAML() ([]byte, error) {
	seenKey := map[string]string{}
	for _, rt := range httpapi.Routes {
		if !slices.Contains(httpapi.Functions, rt.Function) {
			return nil, fmt.Errorf("route %s %s names function %q, which httpapi.Functions does not list", rt.Method, rt.Path, rt.Function)
		}
		key := Method(rt) + " " + Path(rt.Path)
		if fn, dup := seenKey[key]; dup {
			return nil, fmt.Errorf("route key %q is served by both %s and %s", key, fn, rt.Function)
		}
		seenKey[key] = rt.Function
	}
	var b bytes.Buffer
	b.WriteString(BeginMarker + "\n")
	for _, fn := range httpapi.Functions {
		policy := "DynamoDBCrudPolicy"
		if ReadOnly(fn) {
			policy = "DynamoDBReadPolicy"
		}
		fmt.Fprintf(&b, "  %s:\n", fn)
		fmt.Fprintf(&b, "    Type: AWS::Serverless::Function\n")
		fmt.Fprintf(&b, "    Metadata:\n      BuildMethod: makefile\n")
		fmt.Fprintf(&b, "    Properties:\n")
		fmt.Fprintf(&b, "      CodeUri: .\n")
		fmt.Fprintf(&b, "      Description: xqtour %s (%s)\n", fn, Dir(fn))
		if mb := MemoryMB[fn]; mb != 0 {
			fmt.Fprintf(&b, "      MemorySize: %d\n", mb)
		}
		if s := TimeoutS[fn]; s != 0 {
			fmt.Fprintf(&b, "      Timeout: %d\n", s)
		}
		fmt.Fprintf(&b, "      Policies:\n        - %s:\n            TableName: !Ref %s\n", policy, TableID)
		if CountsUsage(fn) { // a read-only function serving API routes
			b.WriteString(usagePolicy)
			b.WriteString(ViewsStatement())
		}
		routes := RoutesOf(fn)
		if len(routes) == 0 {
			continue
		}
		fmt.Fprintf(&b, "      Events:\n")
		names := map[string]bool{}
		for _, rt := range routes {
			name := EventName(rt)
			if names[name] {
				return nil, fmt.Errorf("function %s: two routes map to event name %s", fn, name)
			}
			names[name] = true
			fmt.Fprintf(&b, "        %s:\n", name)
			fmt.Fprintf(&b, "          Type: HttpApi\n")
			fmt.Fprintf(&b, "          Properties:\n")
			fmt.Fprintf(&b, "            ApiId: !Ref %s\n", ApiID)
			fmt.Fprintf(&b, "            Method: %s\n", Method(rt))
			fmt.Fprintf(&b, "            Path: %s\n", Path(rt.Path))
		}
	}
	b.WriteString(DueWorkYAML())
	b.WriteString(EndMarker + "\n")
	return b.Bytes(), nil
}

// Sync returns template with its generated blocks replaced: the functions
// (FunctionsYAML), the edge cache policies and the distribution's cache
// behaviours (EdgePoliciesYAML, EdgeBehavioursYAML).
func Sync(template []byte) ([]byte, error) {
	begin := bytes.Index(template, []byte(BeginMarker+"\n"))
	end := bytes.Index(template, []byte(EndMarker+"\n"))
	if begin < 0 || end < begin {
		return nil, fmt.Errorf("template: the generated block's markers are missing or out of order")
	}
	block, err := FunctionsYAML()
	if err != nil {
		return nil, err
	}
	out := slices.Concat(template[:begin], block, template[end+len(EndMarker)+1:])
	policies, err := EdgePoliciesYAML()
	if err != nil {
		return nil, err
	}
	if out, err = replaceBlock(out, EdgePoliciesBegin, EdgePoliciesEnd, policies); err != nil {
		return nil, err
	}
	behaviours, err := EdgeBehavioursYAML()
	if err != nil {
		return nil, err
	}
	return replaceBlock(out, EdgeBehavioursBegin, EdgeBehavioursEnd, behaviours)
}

// LocalTable and LocalEndpoint are what `sam local start-api` functions use:
// a table on DynamoDB Local (or any DynamoDB-compatible server) on the host's
// port 8000, reached from inside the function containers.
const (
	LocalTable    = "xqtour"
	LocalEndpoint = "http://host.docker.internal:8000"
)

// EnvLocalJSON renders infra/sam/env.local.json, the --env-vars file of
// `sam local start-api`: TABLE_NAME and DYNAMODB_ENDPOINT for every function.
func EnvLocalJSON() []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, fn := range httpapi.Functions {
		fmt.Fprintf(&b, "  %q: {\n    \"TABLE_NAME\": %q,\n    \"DYNAMODB_ENDPOINT\": %q\n  }", fn, LocalTable, LocalEndpoint)
		if i < len(httpapi.Functions)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}
