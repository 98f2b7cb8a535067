#!/bin/zsh
echo 'building image'
kubectl-corpus apply -f k8s/
echo 'deployed'
