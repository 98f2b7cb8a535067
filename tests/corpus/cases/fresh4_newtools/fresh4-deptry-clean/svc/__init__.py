import requests
