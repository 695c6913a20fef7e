package main

import (
	"fmt"
	"strings"
)

// domain is a technology a library holds three skills for: setting it up,
// diagnosing it, reviewing changes to it.
type domain struct {
	key, title string
	// setup is what setting it up covers; trouble the problems it has;
	// object what a review of it reads.
	setup, trouble, object string
}

// domains are the technologies of the large library: 40 of them, three
// skills each.
func domains() []domain {
	return []domain{
		{"kafka", "Kafka", "topics, partitions and consumer groups", "consumer lag, rebalancing storms and stuck partitions", "topic configurations"},
		{"postgres", "PostgreSQL", "roles, connection pooling and backups", "slow queries, lock waits and table bloat", "schema changes"},
		{"redis", "Redis", "persistence, eviction and replication", "memory spikes, evictions and slow commands", "key layouts"},
		{"kubernetes", "Kubernetes", "deployments, services and resource limits", "crash loops, pending pods and failing probes", "manifests"},
		{"terraform", "Terraform", "providers, remote state and modules", "state drift, failed applies and provider errors", "plans"},
		{"docker", "Docker", "images, multi-stage builds and registries", "oversized images, cache misses and failing builds", "Dockerfiles"},
		{"nginx", "nginx", "virtual hosts, TLS and rate limits", "502 errors, upstream timeouts and redirect loops", "server configurations"},
		{"grafana", "Grafana", "dashboards, data sources and alert rules", "empty panels, slow dashboards and noisy alerts", "dashboards"},
		{"prometheus", "Prometheus", "scrape targets, recording rules and retention", "missing metrics, high cardinality and failed scrapes", "alerting rules"},
		{"react", "React", "components, state management and routing", "re-render loops, hydration errors and stale state", "components"},
		{"django", "Django", "apps, settings and migrations", "N+1 queries, migration conflicts and CSRF failures", "models and views"},
		{"rails", "Rails", "models, background jobs and credentials", "slow requests, failing jobs and asset errors", "controllers"},
		{"graphql", "GraphQL", "schemas, resolvers and pagination", "slow resolvers, N+1 fetches and schema errors", "schema changes"},
		{"elasticsearch", "Elasticsearch", "indices, mappings and analyzers", "red clusters, slow searches and mapping conflicts", "index mappings"},
		{"airflow", "Airflow", "DAGs, connections and schedules", "stuck tasks, scheduler lag and failed backfills", "DAGs"},
		{"spark", "Spark", "jobs, partitioning and cluster sizing", "skewed stages, out-of-memory executors and slow shuffles", "jobs"},
		{"github-actions", "GitHub Actions", "workflows, caches and secrets", "flaky jobs, cache misses and permission errors", "workflows"},
		{"jenkins", "Jenkins", "pipelines, agents and credentials", "hung builds, agent disconnects and plugin errors", "Jenkinsfiles"},
		{"aws-iam", "AWS IAM", "roles, policies and trust relationships", "access denied errors and over-broad policies", "policies"},
		{"aws-lambda", "AWS Lambda", "functions, triggers and layers", "cold starts, timeouts and throttling", "functions"},
		{"s3", "Amazon S3", "buckets, lifecycle rules and encryption", "403 errors, slow uploads and unexpected costs", "bucket policies"},
		{"bigquery", "BigQuery", "datasets, partitioned tables and scheduled queries", "expensive queries, quota errors and slow joins", "queries"},
		{"mongodb", "MongoDB", "collections, indexes and replica sets", "slow queries, replication lag and connection storms", "schemas"},
		{"rabbitmq", "RabbitMQ", "exchanges, queues and dead-lettering", "growing queues, blocked publishers and unacked messages", "topologies"},
		{"oauth", "OAuth", "clients, scopes and token lifetimes", "invalid grants, redirect mismatches and expired tokens", "integrations"},
		{"tls", "TLS certificates", "certificate issuance and renewal", "expired certificates, chain errors and handshake failures", "certificate setups"},
		{"dns", "DNS", "zones, records and TTLs", "resolution failures, propagation delays and wrong records", "zone changes"},
		{"webpack", "webpack", "bundles, loaders and code splitting", "slow builds, huge bundles and broken source maps", "configurations"},
		{"typescript", "TypeScript", "strict compiler options and project references", "type errors after upgrades and slow type checks", "type definitions"},
		{"go-modules", "Go modules", "module paths, versions and replace directives", "dependency conflicts, checksum errors and build failures", "go.mod changes"},
		{"python-packaging", "Python packaging", "pyproject files, wheels and publishing", "resolver conflicts, missing wheels and import errors", "package metadata"},
		{"celery", "Celery", "workers, queues and retries", "stuck tasks, memory leaks and lost results", "task definitions"},
		{"openapi", "OpenAPI", "specifications, schemas and code generation", "validation errors and generated clients that do not compile", "API specifications"},
		{"sentry", "Sentry", "projects, releases and source maps", "missing events, noisy issues and unsymbolicated stack traces", "alert rules"},
		{"vault", "HashiCorp Vault", "secret engines, policies and auth methods", "sealed vaults, denied requests and expired leases", "policies"},
		{"istio", "Istio", "gateways, virtual services and mutual TLS", "503 errors, sidecar failures and routing mistakes", "mesh configurations"},
		{"helm", "Helm", "charts, values and releases", "failed upgrades, rollback errors and template bugs", "charts"},
		{"snowflake", "Snowflake", "warehouses, roles and stages", "slow queries, credit spikes and load failures", "warehouse settings"},
		{"stripe", "Stripe", "payments, webhooks and subscriptions", "failed webhooks, declined payments and idempotency errors", "integrations"},
		{"i18n", "internationalization", "message catalogs, plurals and locale routing", "missing translations, broken plurals and mixed locales", "message catalogs"},
	}
}

// librarySkills are the large library's skills: a setup, a debug and a
// review skill for each domain, 120 in all, their descriptions of 100 to
// 180 characters, so that the catalog of all of them (some 19,000
// characters) is more than twice the default budget of 8,000.
func librarySkills() []skillFile {
	var out []skillFile
	for _, d := range domains() {
		out = append(out,
			skillFile{d.key + "-setup",
				fmt.Sprintf("Set up %s for a project: %s, with defaults that are safe in production. Use when adding %s to a service.", d.title, d.setup, d.title),
				body(d.title+" setup",
					fmt.Sprintf("Read the project's existing %s configuration, if any, and the service's README before you change anything.", d.title),
					fmt.Sprintf("Configure %s: %s, each with a comment that says why the value was chosen.", d.title, d.setup),
					"Keep secrets out of the repository: reference them from the environment or the secret store.",
					fmt.Sprintf("Add a check that fails when %s is misconfigured, and run it.", d.title),
					"Write down in the README how to run it locally and in production.")},
			skillFile{d.key + "-debug",
				fmt.Sprintf("Diagnose and fix %s problems such as %s. Use when %s fails, is slow, or behaves unexpectedly.", d.title, d.trouble, d.title),
				body(d.title+" debugging",
					"Reproduce the problem first, and write down the exact symptom, the time and the environment.",
					fmt.Sprintf("Collect %s's logs and metrics for the time of the symptom; look for %s.", d.title, d.trouble),
					"Form one hypothesis at a time and test it with the smallest change that would disprove it.",
					"Fix the cause, not the symptom, and add a test or an alert that would have caught it.",
					"Summarise the cause, the fix and the evidence in the change's description.")},
			skillFile{d.key + "-review",
				fmt.Sprintf("Review %s %s for correctness, security and cost before they are merged, and say what must change.", d.title, d.object),
				body(d.title+" review",
					fmt.Sprintf("Read the change's description, then the %s it touches, whole, not only the diff.", d.object),
					"Check every value that differs from the default for a reason written next to it.",
					"Look for secrets, over-broad permissions and settings that cost money at scale.",
					"Check that the change can be rolled back, and how.",
					"Separate what must change before merging from what could.")},
		)
	}
	return out
}

// longScenario is the long conversation over the large library: 48 turns,
// a third of them asking for something a skill of the library is for (the
// model loads that skill, then answers), the others follow-ups it answers
// directly; the model's answers are long (the code it writes), so that the
// conversation grows past 100,000 tokens. The skills change twice, as they
// rarely do in a session: a skill is added before turn 17, a description
// edited before turn 34.
func longScenario() *scenario {
	asks := []struct{ load, user string }{
		{"kafka-debug", "The Kafka consumer lag keeps growing after every deploy. Diagnose it and fix it."},
		{"postgres-review", "Please review the PostgreSQL schema changes in this branch before I merge them."},
		{"terraform-debug", "A Terraform apply failed halfway and the state has drifted. Diagnose the drift and fix the Terraform state."},
		{"react-debug", "The React dashboard page re-renders in a loop and shows stale state after navigation. Can you diagnose it?"},
		{"github-actions-setup", "Set up GitHub Actions for this repository: a workflow that runs the tests with a cache for dependencies."},
		{"aws-lambda-debug", "Diagnose the cold starts, timeouts and throttling of our AWS Lambda function."},
		{"feature-flags", "Roll out the new checkout flow behind a feature flag, to internal users first."},
		{"redis-setup", "Add Redis to the session service, with persistence and replication configured safely for production."},
		{"nginx-debug", "Since this morning nginx returns 502 errors and upstream timeouts for the API. Diagnose and fix it."},
		{"openapi-review", "Review the OpenAPI specification changes for the orders API."},
		{"helm-debug", "helm upgrade failed and the rollback errors out too. Help me recover the Helm release."},
		{"postgres-debug", "Queries on the orders table in PostgreSQL got slow and we see lock waits. Please dig in."},
		{"celery-debug", "Celery tasks get stuck and the workers leak memory until they are killed. Diagnose it."},
		{"dns-setup", "Set up DNS for the new staging domain: the zone, the records and sensible TTLs."},
		{"sentry-setup", "Set up Sentry for the web app: releases and source maps."},
		{"kubernetes-review", "Review our Kubernetes manifests before they are merged."},
	}
	modules := []string{"billing", "accounts", "search", "notifications", "reporting", "inventory"}
	var turns []turn
	for i, a := range asks {
		n := len(turns) + 1
		turns = append(turns,
			turn{user: a.user, load: a.load, answer: longAnswer(n, "Done, following "+a.load+".")},
			turn{user: fmt.Sprintf("Thanks. Now apply the same change to the %s module and update its tests.", modules[i%len(modules)]),
				answer: longAnswer(n+1, "Applied to the "+modules[i%len(modules)]+" module; its tests pass.")},
			turn{user: "Rename the helpers you added so that their names say what they do, and run the whole test suite again.",
				answer: longAnswer(n+2, "Renamed; the whole suite passes.")},
		)
	}
	turns[16].change = func(dir string) error { return writeSkill(dir, featureFlagsSkill()) }
	turns[33].change = func(dir string) error {
		s := librarySkills()[4] // postgres-debug
		s.description = "Diagnose and fix PostgreSQL problems: slow queries, lock waits, table bloat, replication lag and vacuum that falls behind."
		return writeSkill(dir, s)
	}
	return &scenario{name: "long", skills: librarySkills(), turns: turns, overBudget: true}
}

// featureFlagsSkill is the skill the long conversation adds.
func featureFlagsSkill() skillFile {
	return skillFile{"feature-flags", "Roll out a change behind a feature flag: define the flag, target internal users first, watch the metrics, then ramp up and remove the flag.",
		body("Feature flags", "Define the flag with an owner and an expiry date.",
			"Guard the new code path with the flag, and keep the old path working.",
			"Enable it for internal users first and watch the error rate and latency.",
			"Ramp up in steps, and roll back by turning the flag off.",
			"Remove the flag and the old path once the rollout is complete.")}
}

// longAnswer returns the model's answer to turn n: a line saying what it
// did, then the code it wrote, some 8,300 characters of it.
func longAnswer(n int, summary string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task %d: %s Here is the code:\n\n```go\n", n, summary)
	for i := range 30 {
		fmt.Fprintf(&b, "// step%d_%d validates the input of stage %d and runs it, with the retries the stage allows.\n", n, i, i)
		fmt.Fprintf(&b, "func step%d_%d(ctx context.Context, in *Input) (*Output, error) {\n", n, i)
		fmt.Fprintf(&b, "\tif err := validate(in, %d); err != nil {\n\t\treturn nil, fmt.Errorf(\"stage %d: %%w\", err)\n\t}\n", i, i)
		fmt.Fprintf(&b, "\treturn run(ctx, in, %d)\n}\n\n", n*100+i)
	}
	b.WriteString("```\n")
	return b.String()
}
