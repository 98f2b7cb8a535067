from alembic import op
import sqlalchemy as sa

revision = "b2c3d4e5f6a7"
down_revision = "a1b2c3d4e5f6"
branch_labels = None
depends_on = None

def upgrade():
    op.execute("UPDATE accounts SET plan = 'free' WHERE plan IS NULL")

def downgrade():
    pass
