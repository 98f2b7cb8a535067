import sqlite3
import click
from flask import Flask, jsonify

app = Flask(__name__)

@app.get("/health")
def health():
    return jsonify(status="ok")

@app.get("/orders")
def orders():
    db = sqlite3.connect("shop.db")
    rows = db.execute("select id, total from orders").fetchall()
    return jsonify(rows)

@app.errorhandler(500)
def err(e):
    return jsonify(error="internal error"), 500

@app.cli.command("seed")
def seed():
    db = sqlite3.connect("shop.db")
    db.execute("insert into orders (id, total) values (1, 9.99)")
    db.commit()
    click.echo("seeded")
