class Importer
  def self.run(rows)
    rows.filter_map do |r|
      Integer(r[:qty])
      r
    rescue ArgumentError => e
      warn "ERROR importer: skipping row #{r[:id]}: #{e.message}"
      nil
    end
  end
end
