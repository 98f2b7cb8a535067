#!/bin/bash
echo "building"
mkdir -p out
cp config/app.yaml out/
echo "uploading out/ to staging"
echo "deploy complete"
