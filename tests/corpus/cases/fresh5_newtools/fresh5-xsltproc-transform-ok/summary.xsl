<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:output method="text"/><xsl:template match="/testsuite">suite <xsl:value-of select="@name"/>: <xsl:value-of select="@tests"/> tests, <xsl:value-of select="@failures"/> failures
</xsl:template></xsl:stylesheet>
