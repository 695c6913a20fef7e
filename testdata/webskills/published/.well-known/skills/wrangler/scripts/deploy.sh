#!/bin/sh
# Deploys the Worker in the current directory.
set -eu
npx wrangler deploy "$@"
