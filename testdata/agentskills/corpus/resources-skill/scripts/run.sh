#!/bin/sh
echo resources
